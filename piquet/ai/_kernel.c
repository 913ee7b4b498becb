/* The compiled search of the card-play solver (piquet.ai.solver), through the CPython API.
 *
 * The same search as the pure-Python one in solver.py (its fallback and oracle): an alpha-beta
 * negamax over tricks with a transposition table of bounds, the variant's play scoring compiled
 * by solver._Model into tables, a pique while one is still possible, the contract and the utility
 * pair all in those tables. What the C adds: moves found by bit operations on the hands (no move
 * lists kept between solves), a flat table of each trick's worth where no pique is possible, the
 * last trick valued directly, and transposition keys by relative rank with the suits in a
 * canonical order where every card scores alike in the play (most variants), and bounds by quick
 * tricks where no pique is possible.
 *
 * Two types: Model (the compiled scoring of one variant, contract, elder and utility, built once; its
 * solve() runs a whole solve from the start of a trick in one call, its search kept inside) and Search
 * (one solve driven from Python, move by move: its transposition table and node count).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "_kernel_search.h"

/* ------------------------------------------------------------------ Model */

static int read_int(PyObject *seq, Py_ssize_t i, long *out) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (!item) return -1;
    long v = PyLong_AsLong(item);
    Py_DECREF(item);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

/* Model(tricks, cards, utility, threshold, pique_points, may_pique, split, canonical, early, names)
   tricks: for leader, last, lead, follow (in that nesting, 4096 items): (winner, ((who, points), ...)); early: the
   cards' points scored at a seventh trick toward a pique (0: none); names: a tuple of the 32 objects that stand for
   the cards, by index, in what solve() returns. */
static PyObject *Model_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    (void)kwds;
    PyObject *tricks, *cards, *utility, *may, *split, *names;
    long threshold, pique_points, early;
    int canonical;
    if (!PyArg_ParseTuple(args, "OOOllOOplO!", &tricks, &cards, &utility, &threshold, &pique_points, &may, &split,
                          &canonical, &early, &PyTuple_Type, &names))
        return NULL;
    if (PyTuple_GET_SIZE(names) != 32) {
        PyErr_SetString(PyExc_ValueError, "names: 32 cards expected");
        return NULL;
    }
    ModelObject *m = (ModelObject *)type->tp_alloc(type, 0);
    if (!m) return NULL;
    Py_INCREF(names);
    m->names = names;
    long v;
    if (read_int(utility, 0, &v) < 0) goto fail;
    m->u0 = (int32_t)v;
    if (read_int(utility, 1, &v) < 0) goto fail;
    m->u1 = (int32_t)v;
    m->threshold = (int32_t)threshold;
    m->pique_points = (int32_t)pique_points;
    m->early = (int32_t)early;
    for (int i = 0; i < 2; i++) {
        if (read_int(may, i, &v) < 0) goto fail;
        m->may[i] = v != 0;
    }
    for (int i = 0; i < 4; i++) {
        if (read_int(split, i, &v) < 0) goto fail;
        m->split[i] = (uint8_t)v;
        m->any_split |= v != 0;
    }
    for (int i = 0; i < 13; i++) {
        if (read_int(cards, i, &v) < 0) goto fail;
        m->cards[i] = (int32_t)v;
    }
    m->canonical = canonical;
    if (PySequence_Size(tricks) != 4096) {
        PyErr_SetString(PyExc_ValueError, "tricks: 4096 entries expected");
        goto fail;
    }
    for (int idx = 0; idx < 4096; idx++) {
        int leader = idx >> 11, last = idx >> 10 & 1, lead = idx >> 5 & 31, follow = idx & 31;
        Trick *t = &m->trick[leader][last][lead][follow];
        PyObject *item = PySequence_GetItem(tricks, idx);
        if (!item) goto fail;
        PyObject *steps = NULL;
        long winner;
        if (read_int(item, 0, &winner) < 0 || !(steps = PySequence_GetItem(item, 1))) {
            Py_DECREF(item);
            goto fail;
        }
        Py_DECREF(item);
        if (winner != 0 && winner != 1) {
            Py_DECREF(steps);
            PyErr_SetString(PyExc_ValueError, "tricks: a winner is seat 0 or 1");
            goto fail;
        }
        Py_ssize_t ns = PySequence_Size(steps);
        if (ns < 0 || ns > MAXSTEPS) {
            Py_DECREF(steps);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many scoring steps in a trick");
            goto fail;
        }
        t->winner = (int8_t)winner;
        t->nsteps = (int8_t)ns;
        t->p0 = t->p1 = 0;
        for (Py_ssize_t k = 0; k < ns; k++) {
            PyObject *step = PySequence_GetItem(steps, k);
            long who, points;
            if (!step || read_int(step, 0, &who) < 0 || read_int(step, 1, &points) < 0) {
                Py_XDECREF(step);
                Py_DECREF(steps);
                goto fail;
            }
            Py_DECREF(step);
            t->who[k] = (int8_t)who;
            t->points[k] = (int16_t)points;
            if (who == 0) t->p0 += points;
            else t->p1 += points;
        }
        Py_DECREF(steps);
        int32_t u = m->u0 * t->p0 + m->u1 * t->p1;
        m->flat[leader][last][lead][follow] = 2 * (leader == 0 ? u : -u) + t->winner;
    }
    for (int me = 0; me < 2; me++) {
        for (int last = 0; last < 2; last++) {
            int32_t lo_win = INF, lo_any = INF, hi_any = -INF;
            for (int leader = 0; leader < 2; leader++) {
                for (int lead = 0; lead < 32; lead++) {
                    for (int follow = 0; follow < 32; follow++) {
                        if (follow == lead) continue;
                        int32_t f = m->flat[leader][last][lead][follow], g = (f - (f & 1)) / 2;
                        int32_t worth = leader == me ? g : -g;
                        if (leader == me && m->trick[leader][last][lead][follow].winner == me && worth < lo_win)
                            lo_win = worth;
                        if (worth < lo_any) lo_any = worth;
                        if (worth > hi_any) hi_any = worth;
                    }
                }
            }
            m->lo_win[me][last] = lo_win;
            m->lo_any[me][last] = lo_any;
            m->hi_any[me][last] = hi_any;
        }
        for (int a = 0; a < 13; a++) {
            int32_t lo = INF, hi = -INF;
            for (int b = a; b < 13; b++) {
                int32_t net = me == 0 ? m->cards[b] : -m->cards[12 - b];
                if (net < lo) lo = net;
                if (net > hi) hi = net;
                m->cmin[me][a][b] = lo;
                m->cmax[me][a][b] = hi;
            }
        }
    }
    return (PyObject *)m;
fail:
    Py_DECREF(m);
    return NULL;
}

/* score(leader, last, lead, follow, seventh, pique): what the search reckons of one trick, for the tests that hold
   it equal to the Python model's score_trick: (seat 0's points, seat 1's points, the pique state after), the pique
   state None where no pique can come, else (a, b). */
static PyObject *Model_score(ModelObject *m, PyObject *args) {
    int leader, last, lead, follow, seventh_;
    PyObject *pique;
    if (!PyArg_ParseTuple(args, "iiiipO", &leader, &last, &lead, &follow, &seventh_, &pique)) return NULL;
    if (leader < 0 || leader > 1 || last < 0 || last > 1 || lead < 0 || lead > 31 || follow < 0 || follow > 31) {
        PyErr_SetString(PyExc_ValueError, "leader and last are 0 or 1, the cards 0 to 31");
        return NULL;
    }
    int32_t pk = NO_PIQUE;
    if (pique != Py_None) {
        long a, b;
        if (read_int(pique, 0, &a) < 0 || read_int(pique, 1, &b) < 0) return NULL;
        pk = (int32_t)(a << 16 | b);
    }
    int32_t p[2];
    int32_t npk = trick_points(m, &m->trick[leader][last][lead][follow], seventh_, pk, p);
    if (npk == NO_PIQUE) return Py_BuildValue("(iiO)", p[0], p[1], Py_None);
    return Py_BuildValue("(ii(ii))", p[0], p[1], npk >> 16, npk & 0xFFFF);
}

static PyObject *Model_solve(ModelObject *m, PyObject *const *args, Py_ssize_t nargs);

static void Model_dealloc(ModelObject *m) {
    Py_XDECREF(m->names);
    Py_TYPE(m)->tp_free((PyObject *)m);
}

static PyMethodDef Model_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Model_solve, METH_FASTCALL,
     "solve(h0, h1, leader, won0, pique, guess, all_best, check): from the start of a trick, the exact best net "
     "score for the leader, the cards that secure it (all, or those of the first such lead; by rank from the ace, "
     "then by suit) and the positions searched, in one call"},
    {"score", (PyCFunction)Model_score, METH_VARARGS,
     "score(leader, last, lead, follow, seventh, pique): seat 0's and seat 1's points of one trick and the pique "
     "state after it, as the search reckons them"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ModelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "piquet.ai._kernel.Model",
    .tp_doc = "The compiled scoring of one variant, contract, elder and utility.",
    .tp_basicsize = sizeof(ModelObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Model_new,
    .tp_dealloc = (destructor)Model_dealloc,
    .tp_methods = Model_methods,
};

/* ------------------------------------------------------------------ Search */

/* Gives `s` a table: one kept from an earlier search (its entries told apart by a new generation), else a new
   one. 0, or -1 (out of memory, an exception set). */
static int take_table(SearchObject *s) {
    if (pool_count) {
        pool_count--;
        s->tt = pool_tables[pool_count];
        s->gen = pool_gens[pool_count] + 1;
        if (s->gen >= (1u << 26)) { /* the generation would overflow its bits: start afresh */
            memset(s->tt, 0, TT_SIZE * sizeof(Entry));
            s->gen = 1;
        }
        return 0;
    }
    s->tt = new_table();
    s->gen = 1;
    if (!s->tt) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Keeps the table of `s` for the next search (or frees it, when enough are kept). */
static void give_table(SearchObject *s) {
    if (!s->tt) return;
    if (pool_count < POOL) {
        pool_tables[pool_count] = s->tt;
        pool_gens[pool_count] = s->gen;
        pool_count++;
    } else {
        free_table(s->tt);
    }
    s->tt = NULL;
}

static int read_check(PyObject *check) {
    if (check != Py_None && !PyCallable_Check(check)) {
        PyErr_SetString(PyExc_TypeError, "check must be callable or None");
        return -1;
    }
    return 0;
}

static PyObject *Search_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    (void)kwds;
    PyObject *model, *check = Py_None;
    if (!PyArg_ParseTuple(args, "O!|O", &ModelType, &model, &check) || read_check(check) < 0) return NULL;
    SearchObject *s = (SearchObject *)type->tp_alloc(type, 0);
    if (!s) return NULL;
    if (take_table(s) < 0) {
        Py_DECREF(s);
        return NULL;
    }
    Py_INCREF(model);
    s->model = (ModelObject *)model;
    s->mask = TT_SIZE - 1; /* the whole table: a search driven from Python may meet positions of any size */
    s->nodes = 0;
    s->check = check == Py_None ? NULL : check;
    Py_XINCREF(s->check);
    s->stopped = 0;
    return (PyObject *)s;
}

static void Search_dealloc(SearchObject *s) {
    give_table(s);
    Py_XDECREF(s->model);
    Py_XDECREF(s->check);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int read_pk(PyObject *obj, int32_t *pk) {
    if (obj == Py_None) {
        *pk = NO_PIQUE;
        return 0;
    }
    long a, b;
    if (read_int(obj, 0, &a) < 0 || read_int(obj, 1, &b) < 0) return -1;
    if (a < 0 || b < 0 || a > 0x7FFF || b > 0xFFFF) {
        PyErr_SetString(PyExc_ValueError, "pique scores out of range");
        return -1;
    }
    *pk = (int32_t)(a << 16 | b);
    return 0;
}

static int check_position(uint32_t h0, uint32_t h1, long leader, long won0) {
    if ((leader != 0 && leader != 1) || won0 < 0 || won0 > 12 || (h0 & h1) ||
        __builtin_popcount(h0) != __builtin_popcount(h1) || won0 + __builtin_popcount(h0) > 12) {
        PyErr_SetString(PyExc_ValueError, "not a position at the start of a trick");
        return -1;
    }
    return 0;
}

/* value(h0, h1, leader, won0, pk, alpha, beta): the best net score for the leader */
static PyObject *Search_value(SearchObject *s, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "value() takes 7 arguments");
        return NULL;
    }
    unsigned long h0 = PyLong_AsUnsignedLong(args[0]), h1 = PyLong_AsUnsignedLong(args[1]);
    long leader = PyLong_AsLong(args[2]), won0 = PyLong_AsLong(args[3]);
    long alpha = PyLong_AsLong(args[5]), beta = PyLong_AsLong(args[6]);
    int32_t pk;
    if (PyErr_Occurred() || read_pk(args[4], &pk) < 0) return NULL;
    if (check_position((uint32_t)h0, (uint32_t)h1, leader, won0) < 0) return NULL;
    s->stopped = 0;
    int v = value(s, (uint32_t)h0, (uint32_t)h1, (int)leader, (int)won0, pk, (int)alpha, (int)beta);
    return s->stopped ? NULL : PyLong_FromLong(v);
}

/* The exact value by a sequence of null-window searches (Plaat's MTD(f)), the table kept across them: each
   pass tests whether the value is at least beta, and narrows the bounds until they meet. */
static int mtdf(SearchObject *s, uint32_t h0, uint32_t h1, int leader, int won0, int32_t pk, int guess) {
    int lower = -INF, upper = INF, g = guess;
    while (lower < upper) {
        int beta = g == lower ? g + 1 : g;
        g = value(s, h0, h1, leader, won0, pk, beta - 1, beta);
        if (s->stopped) return 0;
        if (g < beta) upper = g;
        else lower = g;
    }
    return g;
}

/* mtdf(h0, h1, leader, won0, pk, guess): the best net score for the leader, exactly */
static PyObject *Search_mtdf(SearchObject *s, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "mtdf() takes 6 arguments");
        return NULL;
    }
    unsigned long h0 = PyLong_AsUnsignedLong(args[0]), h1 = PyLong_AsUnsignedLong(args[1]);
    long leader = PyLong_AsLong(args[2]), won0 = PyLong_AsLong(args[3]), guess = PyLong_AsLong(args[5]);
    int32_t pk;
    if (PyErr_Occurred() || read_pk(args[4], &pk) < 0) return NULL;
    if (check_position((uint32_t)h0, (uint32_t)h1, leader, won0) < 0) return NULL;
    if (guess <= -INF || guess >= INF) {
        PyErr_SetString(PyExc_ValueError, "the first guess is out of range");
        return NULL;
    }
    s->stopped = 0;
    int v = mtdf(s, (uint32_t)h0, (uint32_t)h1, (int)leader, (int)won0, pk, (int)guess);
    return s->stopped ? NULL : PyLong_FromLong(v);
}

/* The cards of `mine` that the representative `c` stands for: those below it in its suit down to a card of
   `theirs` or the next representative. */
static uint32_t run_of(const ModelObject *m, uint32_t mine, uint32_t theirs, int c) {
    int sh = 8 * (c >> 3), r = c & 7;
    uint32_t my = (mine >> sh) & 0xFF, their = (theirs >> sh) & 0xFF;
    uint32_t stop = (their | ((heads(m, mine, theirs) >> sh) & ~(1u << r))) & ((1u << r) - 1);
    uint32_t floor = stop ? (2u << (31 - __builtin_clz(stop))) - 1 : 0; /* the stop and below */
    return (my & ((2u << r) - 1) & ~floor) << sh;
}

/* The exact best net score for the leader (MTD(f) from guess), and in masks[] the leads that secure it in the
   order of the search, each as the mask of the cards it stands for (with all_best false, the first only); *k their
   count. Stopped (s->stopped): 0. */
static int best_leads(SearchObject *s, uint32_t h0, uint32_t h1, int leader, int won0, int32_t pk, int guess,
                      int all_best, uint32_t *masks, int *k) {
    *k = 0;
    int v = mtdf(s, h0, h1, leader, won0, pk, guess);
    if (s->stopped) return 0;
    uint32_t mine = leader ? h1 : h0, theirs = leader ? h0 : h1;
    int moves[16];
    int n = lead_order(s->model, mine, theirs, moves);
    for (int i = 0; i < n; i++) {
        int w = lead_value(s, h0, h1, leader, won0, pk, moves[i], v - 1, v);
        if (s->stopped) return 0;
        if (w >= v) {
            masks[(*k)++] = run_of(s->model, mine, theirs, moves[i]);
            if (!all_best) break;
        }
    }
    return v;
}

/* Reads (h0, h1, leader, won0, pk, guess, all_best) from args (guess: args[5]). 0, or -1 with an exception set. */
static int read_root(PyObject *const *args, uint32_t *h0, uint32_t *h1, int *leader, int *won0, int32_t *pk,
                     int *guess, int *all_best) {
    unsigned long a = PyLong_AsUnsignedLong(args[0]), b = PyLong_AsUnsignedLong(args[1]);
    long l = PyLong_AsLong(args[2]), w = PyLong_AsLong(args[3]), g = PyLong_AsLong(args[5]);
    int all = PyObject_IsTrue(args[6]);
    if (PyErr_Occurred() || all < 0 || read_pk(args[4], pk) < 0) return -1;
    if (a > 0xFFFFFFFFul || b > 0xFFFFFFFFul) {
        PyErr_SetString(PyExc_ValueError, "a hand is a 32-bit mask");
        return -1;
    }
    if (check_position((uint32_t)a, (uint32_t)b, l, w) < 0) return -1;
    if (g <= -INF || g >= INF) {
        PyErr_SetString(PyExc_ValueError, "the first guess is out of range");
        return -1;
    }
    *h0 = (uint32_t)a, *h1 = (uint32_t)b, *leader = (int)l, *won0 = (int)w, *guess = (int)g, *all_best = all;
    return 0;
}

/* Model.solve(h0, h1, leader, won0, pk, guess, all_best, check): a whole solve from the start of a trick in one
   call, its search made and dropped here (no Search object): (the exact best net score for the leader, a list of
   the cards that secure it, as the model's names, by rank from the ace and then by suit, the positions searched).
   check as for Search. */
static PyObject *Model_solve(ModelObject *m, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "solve() takes 8 arguments");
        return NULL;
    }
    uint32_t h0, h1;
    int leader, won0, guess, all_best, k;
    int32_t pk;
    if (read_root(args, &h0, &h1, &leader, &won0, &pk, &guess, &all_best) < 0 || read_check(args[7]) < 0)
        return NULL;
    SearchObject s; /* not a Python object: only its search's fields are used; check is borrowed for the call */
    memset(&s, 0, sizeof s);
    s.model = m;
    s.check = args[7] == Py_None ? NULL : args[7];
    if (take_table(&s) < 0) return NULL;
    s.mask = (1u << table_bits(__builtin_popcount(h0))) - 1;
    for (uint32_t i = 0; i <= s.mask; i += 64 / sizeof(Entry)) __builtin_prefetch(&s.tt[i], 1, 3);
    uint32_t masks[16];
    int v = best_leads(&s, h0, h1, leader, won0, pk, guess, all_best, masks, &k);
    give_table(&s);
    if (s.stopped) return NULL;
    uint32_t best = 0;
    for (int i = 0; i < k; i++) best |= masks[i];
    PyObject *out = PyTuple_New(3), *cards = PyList_New(__builtin_popcount(best));
    if (!out || !cards) {
        Py_XDECREF(out);
        Py_XDECREF(cards);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 1, cards);
    Py_ssize_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        for (int suit = 0; suit < 4; suit++) {
            if (!(best >> (8 * suit + rank) & 1)) continue;
            PyObject *card = PyTuple_GET_ITEM(m->names, 8 * suit + rank);
            Py_INCREF(card);
            PyList_SET_ITEM(cards, n++, card);
        }
    }
    PyObject *value = PyLong_FromLong(v), *nodes = PyLong_FromLongLong(s.nodes);
    if (!value || !nodes) {
        Py_XDECREF(value);
        Py_XDECREF(nodes);
        Py_DECREF(out);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, value);
    PyTuple_SET_ITEM(out, 2, nodes);
    return out;
}

/* lead_value(h0, h1, leader, won0, pk, lead, alpha, beta): the net score for the leader of this lead */
static PyObject *Search_lead_value(SearchObject *s, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "lead_value() takes 8 arguments");
        return NULL;
    }
    unsigned long h0 = PyLong_AsUnsignedLong(args[0]), h1 = PyLong_AsUnsignedLong(args[1]);
    long leader = PyLong_AsLong(args[2]), won0 = PyLong_AsLong(args[3]);
    long lead = PyLong_AsLong(args[5]), alpha = PyLong_AsLong(args[6]), beta = PyLong_AsLong(args[7]);
    int32_t pk;
    if (PyErr_Occurred() || read_pk(args[4], &pk) < 0) return NULL;
    if (check_position((uint32_t)h0, (uint32_t)h1, leader, won0) < 0) return NULL;
    uint32_t mine = leader ? (uint32_t)h1 : (uint32_t)h0;
    if (lead < 0 || lead > 31 || !(mine >> lead & 1)) {
        PyErr_SetString(PyExc_ValueError, "the lead is not in the leader's hand");
        return NULL;
    }
    s->stopped = 0;
    int v = lead_value(s, (uint32_t)h0, (uint32_t)h1, (int)leader, (int)won0, pk, (int)lead, (int)alpha, (int)beta);
    return s->stopped ? NULL : PyLong_FromLong(v);
}

static PyObject *Search_get_nodes(SearchObject *s, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(s->nodes);
}

static PyMethodDef Search_methods[] = {
    {"value", (PyCFunction)(void (*)(void))Search_value, METH_FASTCALL,
     "value(h0, h1, leader, won0, pique, alpha, beta): the best net score for the leader from the start of a trick"},
    {"mtdf", (PyCFunction)(void (*)(void))Search_mtdf, METH_FASTCALL,
     "mtdf(h0, h1, leader, won0, pique, guess): the exact best net score for the leader from the start of a trick, "
     "by null-window searches from guess"},
    {"lead_value", (PyCFunction)(void (*)(void))Search_lead_value, METH_FASTCALL,
     "lead_value(h0, h1, leader, won0, pique, lead, alpha, beta): the net score for the leader of leading lead"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "positions searched (not found in the table)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "piquet.ai._kernel.Search",
    .tp_doc = "One solve: a transposition table and a node count.",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Search_new,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "piquet.ai._kernel",
    .m_doc = "The compiled search of piquet.ai.solver (optional; the pure-Python search is its fallback).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    for (int present = 0; present < 256; present++) {
        for (int mine = 0; mine < 256; mine++) {
            int out = 0, k = 0;
            for (int r = 0; r < 8; r++) {
                if (present >> r & 1) {
                    if (mine >> r & 1) out |= 1 << k;
                    k++;
                }
            }
            compress_table[present][mine] = (uint8_t)out;
        }
    }
    for (int i = 0; i < 32; i++) above[i] = (0xFFu << (8 * (i >> 3))) & ~((2u << i) - 1);
    if (PyType_Ready(&ModelType) < 0 || PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *mod = PyModule_Create(&kernel_module);
    if (!mod) return NULL;
    Py_INCREF(&ModelType);
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(mod, "Model", (PyObject *)&ModelType) < 0 ||
        PyModule_AddObject(mod, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
