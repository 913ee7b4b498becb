/* The search of the compiled kernel (_kernel.c, which includes it: one translation unit, so its functions
 * stay static and inlined): the transposition table, moves by bit operations, the play's scoring from the
 * model's tables, and the alpha-beta search over tricks. _kernel.c holds the Python types around it.
 */
#ifndef PIQUET_KERNEL_SEARCH_H
#define PIQUET_KERNEL_SEARCH_H

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
    int any_split;               /* some suit's ranks score differently */
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

/* A solve uses the first part of its table, sized to the positions it may meet, and fetches that part into the
   cache before it searches, in one stream. Each solve starts cold (whatever ran between two solves, a 64 MB
   yardstick or the game, has evicted the table): in the whole table each new position's probe waited for its own
   line from memory, one after another; in a table sized to the problem the lines come together, ahead of need.
   Entries: 2^(cards a hand), so 4,096 (128 kB) for a 12-card deal, a search of some 500 positions (6,000 at most
   in the benchmark's thirty), where the whole table searched 4% fewer in all; 128 entries at the least. Twice as
   many took 3-4% more time, half as many more in the large solves. */
#define TABLE_MIN_BITS 7

static inline uint32_t table_bits(int cards_a_hand) {
    int bits = cards_a_hand;
    return (uint32_t)(bits < TABLE_MIN_BITS ? TABLE_MIN_BITS : bits > TT_BITS ? TT_BITS : bits);
}

typedef struct {
    PyObject_HEAD
    ModelObject *model;
    Entry *tt;
    uint32_t mask;   /* the entries of the table in use, less one: the first ones, a power of two */
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
    /* a sorting network of four, each step a larger and a smaller without a branch (conditional moves: the suits'
       order is random from one position to the next, and a branch on it was mispredicted half the time) */
#define SWAP(i, j) { uint32_t a = c[i], b = c[j]; c[i] = a > b ? a : b; c[j] = a > b ? b : a; }
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

/* The representatives of the runs of `mine`, in all four suits at once, where no two ranks score differently:
   each card of mine whose next card present above it in its suit (of mine or of `barrier`; the cards played are
   absent) is not of mine. By bit operations, no table: mine is filled downwards through the absent ranks
   (Kogge-Stone, in steps of 1, 2 and 4 ranks kept within each byte), and a card of mine is no head where the rank
   above it is filled. Equal to runs() without splits on every (mine, barrier) of a suit. */
static inline uint32_t heads_unsplit(uint32_t mine, uint32_t barrier) {
    uint32_t gap = ~(mine | barrier), down = mine;
    down |= gap & (down >> 1) & 0x7F7F7F7Fu;
    gap &= (gap >> 1) & 0x7F7F7F7Fu;
    down |= gap & (down >> 2) & 0x3F3F3F3Fu;
    gap &= (gap >> 2) & 0x3F3F3F3Fu;
    down |= gap & (down >> 4) & 0x0F0F0F0Fu;
    return mine & ~((down >> 1) & 0x7F7F7F7Fu);
}

/* The representatives of the runs of `mine` in all four suits, a run broken by a card of `barrier` and, in a suit
   whose ranks score differently, where they do. */
static inline uint32_t heads(const ModelObject *m, uint32_t mine, uint32_t barrier) {
    uint32_t h = heads_unsplit(mine, barrier);
    if (m->any_split) {
        for (int s = 0; s < 4; s++) {
            if (!m->split[s]) continue;
            int sh = 8 * s;
            h = (h & ~(0xFFu << sh)) | runs((mine >> sh) & 0xFF, (barrier >> sh) & 0xFF, m->split[s]) << sh;
        }
    }
    return h;
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
    uint32_t h = heads(m, mine, theirs);
    uint32_t covered = below_highest(theirs);
    return emit_high_first(h & covered, out, emit_high_first(h & ~covered, out, 0));
}

/* Answers: the cheapest winner first, then the losers from the lowest (a discard: by rank, then suit), then
   the other winners from the highest. `cards` are the follower's cards of the suit led, or all of them. */
static inline int follow_order(const ModelObject *m, uint32_t cards, uint32_t leader_left, int lead, int *out) {
    int ls = lead >> 3, k = 0;
    if (cards & (0xFFu << (8 * ls))) {
        uint32_t suit = 0xFFu << (8 * ls);
        uint32_t h = heads(m, cards & suit, (leader_left | 1u << lead) & suit);
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
    uint32_t by_rank = 0, h = heads(m, cards, leader_left);
    while (h) {
        int c = __builtin_ctz(h);
        h &= h - 1;
        by_rank |= 1u << (4 * (c & 7) + (c >> 3));
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
                            s->mask) & ~1u];
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

#endif /* PIQUET_KERNEL_SEARCH_H */
