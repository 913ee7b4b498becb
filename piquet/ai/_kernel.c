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

#define INF (1 << 20)
#define MAXSTEPS 4
#define NO_PIQUE (-1)

typedef struct {
    int8_t winner;  /* the seat that wins the trick */
    int8_t nsteps;  /* the points in the order they are scored (for a pique) */
    int8_t who[MAXSTEPS];
    int16_t points[MAXSTEPS];
    int32_t p0, p1; /* the points of each seat, together */
} Trick;

typedef struct {
    PyObject_HEAD
    Trick trick[2][2][32][32];   /* [leader][last trick?][lead][follow] */
    int32_t flat[2][2][32][32];  /* where no pique is possible: the leader's worth of the trick's points, times 2,
                                    plus its winner (one 16 kB table: the search's only one of each trick) */
    int32_t cards[13];           /* seat 0's worth of the cards and contract, by the tricks seat 0 won */
    int32_t u0, u1;              /* seat 0's worth of a point of seat 0, of seat 1 */
    int32_t threshold, pique_points;
    int32_t early;               /* the cards, scored at a player's seventh trick (0: at the end) */
    int may[2];
    uint8_t split[4];            /* bit r: ranks r and r-1 of the suit score differently */
    int canonical;               /* every card scores alike: keys by relative rank, suits sorted */
    /* For quick-trick bounds where no pique is possible, by the seat on lead and whether it is the
       last trick: the least a trick he leads and wins is worth to him, the least and most any trick
       is worth to him; and the least and most the cards bring him for a range of tricks he ends with. */
    int32_t lo_win[2][2], lo_any[2][2], hi_any[2][2];
    int32_t cmin[2][13][13], cmax[2][13][13];
    PyObject *names;             /* a tuple: the object that stands for each card in what solve() returns */
} ModelObject;

/* ------------------------------------------------------------------ the transposition table */

typedef struct {
    uint64_t key;   /* the hands (or their canonical form) */
    uint32_t meta;  /* leader, tricks won, and the generation */
    uint32_t pk;    /* the pique state */
    int32_t lo, hi;
    int32_t cards;  /* the cards left in both hands: the work an entry saves */
} Entry;

#define TT_BITS 17
#define TT_SIZE (1u << TT_BITS)

/* Tables are kept for the next search rather than freed; a generation number tells a search's
   own entries from an earlier one's, so no table is cleared between solves. */
#define POOL 4
static Entry *pool_tables[POOL];
static uint32_t pool_gens[POOL];
static int pool_count = 0;

/* A search given a check calls it every CHECK_EVERY positions; an exception it raises stops the search, which
   unwinds without storing anything more in its table, and the call into the kernel raises it. */
#define CHECK_EVERY 4096

/* A table, zeroed. On Linux mapped at a 2 MB boundary and marked for transparent huge pages: the table is
   larger than the processor's page map covers in 4 kB pages, and a probe that also misses there waits twice
   (a page walk, then the line); in two huge pages it does not. Where huge pages are not enabled, the same
   table in small pages. Fresh pages come zeroed from the system, touched only when first probed. */
#define TT_BYTES ((size_t)TT_SIZE * sizeof(Entry))
#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define HUGE_PAGE ((size_t)1 << 21)
static Entry *new_table(void) {
    char *raw = mmap(NULL, TT_BYTES + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    char *tt = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (tt > raw) munmap(raw, (size_t)(tt - raw));
    if (tt + TT_BYTES < raw + TT_BYTES + HUGE_PAGE) munmap(tt + TT_BYTES, (size_t)(raw + HUGE_PAGE - tt));
    madvise(tt, TT_BYTES, MADV_HUGEPAGE); /* advice: a refusal leaves small pages */
    return (Entry *)tt;
}
static void free_table(Entry *tt) { munmap(tt, TT_BYTES); }
#else
static Entry *new_table(void) { return calloc(TT_SIZE, sizeof(Entry)); }
static void free_table(Entry *tt) { free(tt); }
#endif

typedef struct {
    PyObject_HEAD
    ModelObject *model;
    Entry *tt;
    uint32_t gen;
    long long nodes;
    PyObject *check; /* or NULL */
    int stopped;
} SearchObject;

static uint8_t compress_table[256][256]; /* [present ranks][mine]: mine's ranks among the present, packed */
static uint32_t above[32];                /* the cards above each card in its suit */

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t canonical_key(uint32_t h0, uint32_t h1) {
    /* Each suit as its remaining cards from the lowest, a bit set for seat 0's, led by a 1 that
       marks the count; the four suits sorted, so that suits alike in shape share an entry. */
    uint32_t all = h0 | h1;
    uint32_t c[4];
    for (int s = 0; s < 4; s++) {
        uint32_t present = (all >> (8 * s)) & 0xFF, mine = (h0 >> (8 * s)) & 0xFF;
        c[s] = (1u << __builtin_popcount(present)) | compress_table[present][mine];
    }
    /* a sorting network of four */
#define SWAP(i, j) if (c[i] < c[j]) { uint32_t t = c[i]; c[i] = c[j]; c[j] = t; }
    SWAP(0, 1) SWAP(2, 3) SWAP(0, 2) SWAP(1, 3) SWAP(1, 2)
#undef SWAP
    return (uint64_t)c[0] << 27 | (uint64_t)c[1] << 18 | (uint64_t)c[2] << 9 | c[3];
}

/* ------------------------------------------------------------------ moves by bit operations */

/* Each suit's highest card of `cards` and every rank below it, in all four suits at once (the bits smeared
   downwards, kept within their byte). */
static inline uint32_t below_highest(uint32_t cards) {
    cards |= (cards >> 1) & 0x7F7F7F7Fu;
    cards |= (cards >> 2) & 0x3F3F3F3Fu;
    cards |= (cards >> 4) & 0x0F0F0F0Fu;
    return cards;
}

/* The representatives (the highest) of the runs of touching cards of `mine` in one suit, as a mask of
   ranks: a run is broken by a card of `barrier` and where `split` says two ranks score differently. */
static uint32_t runs(uint32_t mine, uint32_t barrier, uint32_t split) {
    uint32_t out = 0;
    int prev = -1;
    uint32_t present = mine | barrier;
    while (present) {
        int r = 31 - __builtin_clz(present);
        present &= ~(1u << r);
        if (barrier >> r & 1) {
            prev = -1;
            continue;
        }
        /* ranks r+1..prev: a split there breaks the run */
        if (prev >= 0 && !(split & (((1u << (prev + 1)) - 1) & ~((1u << (r + 1)) - 1)))) {
            prev = r;
            continue;
        }
        out |= 1u << r;
        prev = r;
    }
    return out;
}

static uint8_t heads_table[256 * 256]; /* [mine << 8 | barrier]: runs() where no two ranks score differently */

static inline uint32_t heads(uint32_t mine, uint32_t barrier, uint32_t split) {
    return split ? runs(mine, barrier, split) : heads_table[mine << 8 | barrier];
}

/* Emits the cards of a mask of representatives, suit by suit from the first, each suit from its highest. */
static inline int emit_high_first(uint32_t mask, int *out, int n) {
    for (int sh = 0; sh < 32; sh += 8) {
        uint32_t suit = mask & (0xFFu << sh);
        while (suit) {
            int c = 31 - __builtin_clz(suit);
            suit &= ~(1u << c);
            out[n++] = c;
        }
    }
    return n;
}

/* Leads: sure winners first (nothing of the opponent's above them), then the rest; each suit by suit, from the
   highest. */
static inline int lead_order(const ModelObject *m, uint32_t mine, uint32_t theirs, int *out) {
    uint32_t h = 0;
    for (int s = 0; s < 4; s++) {
        uint32_t my = (mine >> (8 * s)) & 0xFF;
        if (my) h |= heads(my, (theirs >> (8 * s)) & 0xFF, m->split[s]) << (8 * s);
    }
    uint32_t covered = below_highest(theirs);
    return emit_high_first(h & covered, out, emit_high_first(h & ~covered, out, 0));
}

/* Answers: the cheapest winner first, then the losers from the lowest (a discard: by rank, then suit), then
   the other winners from the highest. `cards` are the follower's cards of the suit led, or all of them. */
static inline int follow_order(const ModelObject *m, uint32_t cards, uint32_t leader_left, int lead, int *out) {
    int ls = lead >> 3, k = 0;
    if (cards & (0xFFu << (8 * ls))) {
        uint32_t barrier = ((leader_left >> (8 * ls)) & 0xFF) | 1u << (lead & 7);
        uint32_t h = heads((cards >> (8 * ls)) & 0xFF, barrier, m->split[ls]) << (8 * ls);
        uint32_t win = h & above[lead], lose = h & ~win;
        if (win) {
            out[k++] = __builtin_ctz(win);
            win &= win - 1;
        }
        while (lose) {
            out[k++] = __builtin_ctz(lose);
            lose &= lose - 1;
        }
        while (win) {
            int c = 31 - __builtin_clz(win);
            win &= ~(1u << c);
            out[k++] = c;
        }
        return k;
    }
    /* a discard: no card wins; by rank from the lowest, then by suit */
    uint32_t by_rank = 0;
    for (int s = 0; s < 4; s++) {
        uint32_t my = (cards >> (8 * s)) & 0xFF;
        if (!my) continue;
        uint32_t h = heads(my, (leader_left >> (8 * s)) & 0xFF, m->split[s]);
        while (h) {
            int r = __builtin_ctz(h);
            h &= h - 1;
            by_rank |= 1u << (4 * r + s);
        }
    }
    while (by_rank) {
        int b = __builtin_ctz(by_rank);
        by_rank &= by_rank - 1;
        out[k++] = 8 * (b & 3) + (b >> 2);
    }
    return k;
}

/* ------------------------------------------------------------------ scoring */

/* One step of a trick's points toward a pique (Law 69): the seat reaching the threshold while the other has
   nothing, and allowed one, has it. The Python model's PiqueRule.reached; tests hold the two equal. */
static inline int reaches(const ModelObject *m, int who, int32_t a, int32_t b) {
    return who == 0 ? (b == 0 && a >= m->threshold && m->may[0]) : (a == 0 && b >= m->threshold && m->may[1]);
}

/* A trick's points for each seat (`p`), and the pique state after it: the trick's steps in order, then, where its
   winner has now won his seventh (`seventh`) and the cards are scored then (option cards_count_toward_pique), the
   cards toward the pique (their points are valued with the cards at the end). The Python model's score_trick;
   tests hold the two equal on every state. */
static inline int32_t trick_points(const ModelObject *m, const Trick *t, int seventh, int32_t pk, int32_t p[2]) {
    p[0] = t->p0;
    p[1] = t->p1;
    if (pk == NO_PIQUE) return NO_PIQUE;
    int early = seventh && m->early;
    int32_t a = pk >> 16, b = pk & 0xFFFF;
    int fired = 0;
    for (int i = 0; i < t->nsteps + early && !fired; i++) {
        int who = i < t->nsteps ? t->who[i] : t->winner;
        int32_t points = i < t->nsteps ? t->points[i] : m->early;
        if (who == 0) a += points;
        else b += points;
        if (reaches(m, who, a, b)) {
            p[who] += m->pique_points;
            fired = 1;
        }
    }
    /* what still matters: a pique is possible only while one player has nothing, and only for a player who may
       pique */
    if (fired || (a && b) || (a && !m->may[0]) || (b && !m->may[1]) || (!a && !b && !m->may[0] && !m->may[1]))
        return NO_PIQUE;
    return a << 16 | b;
}

/* A trick's worth to its leader, and the pique state after it. */
static inline int32_t score_trick(const ModelObject *m, int leader, const Trick *t, int seventh, int32_t pk,
                                  int32_t *npk) {
    int32_t p[2];
    *npk = trick_points(m, t, seventh, pk, p);
    int32_t u = m->u0 * p[0] + m->u1 * p[1];
    return leader == 0 ? u : -u;
}

/* The search's two recursive functions are compiled twice, for baseline x86-64 and for processors with the
   POPCNT instruction, and the dynamic loader picks one for the processor it runs on (target_clones: an ifunc
   resolved once, by cpuid). With POPCNT, __builtin_popcount is one instruction instead of a call into libgcc;
   older processors run the baseline. Elsewhere (no ifunc, another architecture) one baseline copy. */
#if defined(__x86_64__) && defined(__linux__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define SEARCH_CLONES __attribute__((target_clones("popcnt", "default")))
#endif
#endif
#ifndef SEARCH_CLONES
#define SEARCH_CLONES
#endif

SEARCH_CLONES
static int value(SearchObject *s, uint32_t h0, uint32_t h1, int leader, int won0, int32_t pk, int alpha, int beta);

/* Whether the trick played from hands of `cards` each, seat 0 having won `won0` before it, gives its `winner` his
   seventh trick while the cards are scored then (option cards_count_toward_pique). */
static inline int seventh(const ModelObject *m, int cards, int won0, int winner) {
    if (!m->early) return 0;
    return (winner == 0 ? won0 + 1 : 13 - cards - won0) == 7;
}

SEARCH_CLONES
static int lead_value(SearchObject *s, uint32_t h0, uint32_t h1, int leader, int won0, int32_t pk, int lead,
                      int alpha, int beta) {
    const ModelObject *m = s->model;
    uint32_t mine = leader ? h1 : h0, theirs = leader ? h0 : h1;
    int last = (mine & (mine - 1)) == 0;
    uint32_t lead_bit = 1u << lead;
    uint32_t follow_cards = theirs & (0xFFu << (8 * (lead >> 3)));
    if (!follow_cards) follow_cards = theirs;
    int moves[16];
    int n = follow_order(m, follow_cards, mine & ~lead_bit, lead, moves);
    int worst = INF;
    for (int i = 0; i < n; i++) {
        int follow = moves[i];
        int winner;
        int32_t npk, gain;
        if (pk == NO_PIQUE) {
            npk = NO_PIQUE;
            int32_t f = m->flat[leader][last][lead][follow];
            winner = f & 1;
            gain = (f - winner) / 2;
        } else {
            const Trick *t = &m->trick[leader][last][lead][follow];
            winner = t->winner;
            gain = score_trick(m, leader, t, seventh(m, __builtin_popcount(mine), won0, winner), pk, &npk);
        }
        uint32_t gone = ~(lead_bit | 1u << follow);
        uint32_t n0 = h0 & gone, n1 = h1 & gone;
        int nwon0 = won0 + (winner == 0);
        int top = (beta < worst ? beta : worst) - gain;
        int total;
        if (winner == leader)
            total = gain + value(s, n0, n1, winner, nwon0, npk, alpha - gain, top);
        else
            total = gain - value(s, n0, n1, winner, nwon0, npk, -top, gain - alpha);
        if (s->stopped) return 0;
        if (total < worst) {
            worst = total;
            if (worst <= alpha) break;
        }
    }
    return worst;
}

SEARCH_CLONES
static int value(SearchObject *s, uint32_t h0, uint32_t h1, int leader, int won0, int32_t pk, int alpha, int beta) {
    const ModelObject *m = s->model;
    if (!(h0 | h1)) {
        int net = m->cards[won0];
        return leader == 0 ? net : -net;
    }
    uint32_t mine = leader ? h1 : h0, theirs = leader ? h0 : h1;
    if (!(mine & (mine - 1))) {
        /* the last trick: both cards are forced */
        int lead = __builtin_ctz(mine), follow = __builtin_ctz(theirs);
        int winner;
        int32_t npk, gain;
        if (pk == NO_PIQUE) {
            int32_t f = m->flat[leader][1][lead][follow];
            winner = f & 1;
            gain = (f - winner) / 2;
        } else {
            const Trick *t = &m->trick[leader][1][lead][follow];
            winner = t->winner;
            gain = score_trick(m, leader, t, seventh(m, 1, won0, winner), pk, &npk);
        }
        int net = m->cards[won0 + (winner == 0)];
        return gain + (leader == 0 ? net : -net);
    }
    if (pk == NO_PIQUE) {
        /* Quick tricks: the leader's cards above all of the other's in their suit can be cashed one
           after another, so he can win that many; each trick is worth at least (at most) the least
           (most) any is, the cards at least (at most) what the tricks he may end with bring. */
        int q = __builtin_popcount(mine & ~below_highest(theirs));
        int n = __builtin_popcount(mine);
        int won = leader == 0 ? won0 : 12 - n - won0;
        int lower;
        if (q == n)
            lower = (n - 1) * m->lo_win[leader][0] + m->lo_win[leader][1] + m->cmin[leader][won + n][won + n];
        else
            lower = q * m->lo_win[leader][0] + (n - q - 1) * m->lo_any[leader][0] + m->lo_any[leader][1] +
                    m->cmin[leader][won + q][won + n];
        if (lower >= beta) return lower;
        int upper = (n - 1) * m->hi_any[leader][0] + m->hi_any[leader][1] + m->cmax[leader][won][won + n];
        if (upper <= alpha) return upper;
    }
    uint64_t key;
    if (m->canonical) key = canonical_key(h0, h1);
    else key = (uint64_t)h0 << 32 | h1;
    uint32_t meta = (uint32_t)(leader | won0 << 1) | s->gen << 5;
    uint32_t pkey = (uint32_t)pk;
    Entry *bucket = &s->tt[(mix64(key ^ ((uint64_t)meta << 40) ^ ((uint64_t)pkey * 0x9E3779B97F4A7C15ULL)) &
                            (TT_SIZE - 1)) & ~1u];
    Entry *e = NULL;
    if (bucket[0].key == key && bucket[0].meta == meta && bucket[0].pk == pkey) e = &bucket[0];
    else if (bucket[1].key == key && bucket[1].meta == meta && bucket[1].pk == pkey) e = &bucket[1];
    int lo = -INF, hi = INF;
    if (e) {
        lo = e->lo;
        hi = e->hi;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo == hi) return lo;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
    }
    s->nodes++;
    if (s->check && !(s->nodes & (CHECK_EVERY - 1))) {
        PyObject *r = PyObject_CallNoArgs(s->check);
        if (!r) {
            s->stopped = 1;
            return 0;
        }
        Py_DECREF(r);
    }
    int a0 = alpha, best = -INF;
    int moves[16];
    int n = lead_order(m, mine, theirs, moves);
    for (int i = 0; i < n; i++) {
        int worth = lead_value(s, h0, h1, leader, won0, pk, moves[i], alpha, beta);
        if (s->stopped) return 0;
        if (worth > best) {
            best = worth;
            if (best > alpha) {
                alpha = best;
                if (alpha >= beta) break;
            }
        }
    }
    if (best <= a0) {
        if (best < hi) hi = best;
    } else if (best >= beta) {
        if (best > lo) lo = best;
    } else {
        lo = hi = best;
    }
    int cards = __builtin_popcount(h0 | h1);
    if (!e) {
        /* the first slot keeps the entry with more cards left (more work saved), the second
           takes whatever comes */
        Entry *first = &bucket[0];
        if ((first->meta >> 5) != s->gen || first->cards <= cards) {
            if ((first->meta >> 5) == s->gen) bucket[1] = *first;
            e = first;
        } else {
            e = &bucket[1];
        }
    }
    e->key = key;
    e->meta = meta;
    e->pk = pkey;
    e->lo = lo;
    e->hi = hi;
    e->cards = cards;
    return best;
}

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
    uint32_t stop = (their | (heads(my, their, m->split[c >> 3]) & ~(1u << r))) & ((1u << r) - 1);
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
    for (int mine = 0; mine < 256; mine++)
        for (int barrier = 0; barrier < 256; barrier++)
            heads_table[mine << 8 | barrier] = (uint8_t)(mine & barrier ? 0 : runs((uint32_t)mine, (uint32_t)barrier, 0));
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
