/* The search engine's state (_engine.c, the only file that includes this): the counters in
 * COUNTER_NAMES's order, the table (table.py) and the exact children's lines (core.py's
 * _lines), with the Engine object that holds them. */
#ifndef HARNESS_SEARCH_ENGINE_STATE_H
#define HARNESS_SEARCH_ENGINE_STATE_H

#define INF 1000000000L          /* harness.games.base.INF */
#define MAX_PLY 128              /* harness.games.base.MAX_DEPTH (100), with room */
#define NO_MOVE (-1)
#define SIGNAL_INTERVAL 65536    /* nodes between looks for a signal (harness.search.signals) */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)(address))
#endif
#define MAX_MARGINS 16            /* the longest tuple of a game's SelectiveMargins */
#define IID_DEPTH 4               /* selective.py's, with the next two */
#define IID_REDUCTION 2
#define MATE_WINDOW 256
#define N_LMR_STEPS 2
static const int LMR_STEPS[N_LMR_STEPS][3] = {{3, 3, 1}, {6, 12, 2}};   /* selective.py's
                                                 LATE_MOVE_REDUCTIONS: (depth, index, plies) */
#define MERSENNE_61 ((uint64_t)0x1FFFFFFFFFFFFFFFULL)   /* Python hashes ints modulo 2^61 - 1 */

static const char *const COUNTER_NAMES[] = {
    "nodes", "leaves", "qnodes", "zw_searches", "researches", "research_nodes",
    "fail_highs", "fail_highs_first", "fail_lows", "cutoffs",
    "pv_nodes", "cut_nodes", "all_nodes", "passes",
    "tt_probes", "tt_hits", "tt_cutoffs", "null_searches", "null_cutoffs", "bound_cutoffs",
    "tt_deep_cutoffs",
    "reductions", "reduction_researches", "late_move_prunes", "futility_prunes",
    "reverse_futility_cutoffs", "razor_searches", "razor_cutoffs", "iid_searches",
    "mate_distance_cutoffs", "refutation_moves",
};
enum {
    NODES, LEAVES, QNODES, ZW_SEARCHES, RESEARCHES, RESEARCH_NODES,
    FAIL_HIGHS, FAIL_HIGHS_FIRST, FAIL_LOWS, CUTOFFS,
    PV_NODES, CUT_NODES, ALL_NODES, PASSES,
    TT_PROBES, TT_HITS, TT_CUTOFFS, NULL_SEARCHES, NULL_CUTOFFS, BOUND_CUTOFFS,
    TT_DEEP_CUTOFFS,
    REDUCTIONS, REDUCTION_RESEARCHES, LATE_MOVE_PRUNES, FUTILITY_PRUNES,
    REVERSE_FUTILITY_CUTOFFS, RAZOR_SEARCHES, RAZOR_CUTOFFS, IID_SEARCHES,
    MATE_DISTANCE_CUTOFFS, REFUTATION_MOVES, N_COUNTERS
};
static PyObject *COUNTER_KEYS[N_COUNTERS];   /* COUNTER_NAMES as interned strings */
static PyObject *NATIVE_TREE_NAME;           /* "native_tree", interned */
static PyObject *MOVE_NAME_NAME;             /* "move_name", interned */

/* The loops (engine_loops.h), by the names a variant's NativeLoop gives (engine.py); the
 * last three are zwp's own, reached only from its root loop (LOOP_ZWP, expected PV). */
enum {
    LOOP_MINIMAX, LOOP_ALPHABETA, LOOP_ALPHABETA_FS, LOOP_PVS, LOOP_PVS_MARSLAND,
    LOOP_NEGASCOUT, LOOP_NEGASCOUT_FS, LOOP_SCOUT, LOOP_BELLE, LOOP_ZWP, N_NAMED_LOOPS,
    LOOP_ZWP_CUT = N_NAMED_LOOPS, LOOP_ZWP_ALL, LOOP_ZWP_ZERO
};
static const char *const LOOP_NAMES[N_NAMED_LOOPS] = {
    "minimax", "alphabeta", "alphabeta-fs", "pvs", "pvs-marsland", "negascout",
    "negascout-fs", "scout", "belle", "zwp",
};

typedef struct {                         /* engine.py's NativeLoop, field for field */
    int soft, moreland, zw_min_depth, research_min_depth;    /* pvs.pvs (and negascout's
                                                                 research_min_depth) */
    int improve, all_first, pv_full, researched_pv;         /* zwp.zwp */
} LoopParameters;

typedef struct {                         /* core.py's selective switches, as it resolved them */
    int lmr;                             /* late-move reductions */
    int iid;                             /* internal iterative deepening */
    long mate;                           /* mate-distance pruning: the mate score (0: off) */
    int late_move_count_n, futility_n, reverse_futility_n, razoring_n, static_depth;
    long late_move_counts[MAX_MARGINS], futility[MAX_MARGINS],
         reverse_futility[MAX_MARGINS], razoring[MAX_MARGINS];
} Selective;

typedef struct {                         /* core.py's per-ply facts of the selective rules */
    char pv, prunable;
    int remaining, count;
    long static_value;
    Move last;
} PlyFacts;

typedef struct {                         /* 32 bytes */
    uint64_t key;
    Move move;                           /* NO_MOVE for None */
    int32_t depth, lower, upper;
    uint32_t search;                     /* the search that wrote it; another's is empty */
} Slot;

typedef struct {
    Slot *slots;
    size_t size;
    uint32_t search;                     /* the stamp of the search using it */
} Table;

static Table spare = {NULL, 0, 0};       /* the process's table not in use */

typedef struct {                         /* core.py's _lines[ply]: the exact children's lines */
    int count, capacity;
    Move *moves;
    PyObject **lines;
} Lines;

typedef struct {
    PyObject_HEAD
    PyObject *tree;                      /* the tree object; `api` calls on it */
    const NativeTree *api;
    PyObject *capsule;                   /* keeps `api` alive */
    PyObject *limit_error;               /* NodeLimitReached */
    PyObject *counters_object;           /* Search.counters: set from `counters` after a pass */
    long long synced[N_COUNTERS];        /* what counters_object holds */
    int root_loop;                       /* the loop of every pass (LOOP_*) */
    LoopParameters loop;                 /* its parameters, and those of the loops below */
    int hash_move, store_leaves, narrow_on_hit, value_bounds;
    int quiescence;                      /* the tree's quiescence search at the horizon */
    int null_reduction, null_either;     /* null move: R (0: off); the rule is `either` */
    int extend_checks;                   /* one ply deeper where the side to move is in check */
    int leaf_shortcut;                   /* core.py's _leaf_shortcut */
    int selective;                       /* core.py's _selective: any selective rule on */
    int checks;                          /* core.py's _checks: read check status at nodes */
    Selective rules;
    long long node_limit;
    long long next_check;                /* node count of the next must_stop: signals, limit */
    long long counters[N_COUNTERS];
    Table table;                         /* size 0: no table */
    int ply, failed;
    int researching;                     /* core.py's _researching: inside a re-search */
    int root_lower_bound;                /* Search.root_lower_bound (Belle's pending move) */
    int plies_used;                      /* lines[0..plies_used) zeroed, may hold memory;
                                          * the rest not even zeroed (Engine_new) */
    Move best_move;
    PyObject *line, *root_line;          /* core.py's _line and root_line (or NULL) */
    int refutations;                     /* core.py's refutations: refutation tables on */
    int staged;                          /* the tree's first_moves, then rest_moves */
    Lines refutation_lines;              /* core.py's _refutation_lines, by root move */
    Lines lines[MAX_PLY + 1];
    PlyFacts facts[MAX_PLY + 2];         /* each written before it is read: not zeroed */
    PyObject *refute[MAX_PLY + 2];       /* core.py's _refute, borrowed from
                                          * refutation_lines; written before read */
} Engine;

/* ---- the table (table.py) -------------------------------------------------------------- */

typedef struct {
    uint64_t id;                         /* what the table compares: key() */
    uint64_t hash;                       /* what chooses the slot: slot_hash(), or key() */
} Key;

static inline Key key_here(Engine *e) {
    Key k;
    if (e->api->key_and_slot != NULL) {
        k.id = e->api->key_and_slot(e->tree, &k.hash);
        return k;
    }
    k.id = e->api->key(e->tree);
    k.hash = e->api->slot_hash != NULL ? e->api->slot_hash(e->tree) : k.id;
    return k;
}

/* hash(key) % size, as table.py: Python hashes an int below 2^64 to itself modulo the
 * Mersenne prime 2^61 - 1, which folds without a division; a tree with a slot_hash gives
 * hash(key) itself, a signed Py_hash_t, taken modulo size as Python's % takes it. */
static inline Slot *slot_of(Engine *e, uint64_t hash) {
    size_t size = e->table.size;
    if (e->api->slot_hash != NULL) {
        if ((size & (size - 1)) == 0)        /* Python's % by a power of two: the low bits */
            return &e->table.slots[hash & (size - 1)];
        long long remainder = (long long)hash % (long long)size;
        return &e->table.slots[remainder < 0 ? remainder + (long long)size : remainder];
    }
    hash = (hash & MERSENNE_61) + (hash >> 61);
    if (hash >= MERSENNE_61)
        hash -= MERSENNE_61;
    return &e->table.slots[(size & (size - 1)) == 0 ? hash & (size - 1) : hash % size];
}

static inline Slot *probe(Engine *e, Key key) {
    Slot *s = slot_of(e, key.hash);
    return s->search == e->table.search && s->key == key.id ? s : NULL;
}

static void store(Engine *e, Key k, int depth, long alpha, long beta, long value,
                  Move move) {
    uint64_t key = k.id;
    long lower, upper;
    if (value <= alpha) {
        lower = -INF;
        upper = value;
    } else if (value >= beta) {
        lower = value;
        upper = INF;
    } else {
        lower = upper = value;
    }
    Slot *old = slot_of(e, k.hash);
    if (old->search == e->table.search) {
        if (old->key == key) {
            long high = lower > old->lower ? lower : old->lower;
            long low = upper < old->upper ? upper : old->upper;
            if (old->depth == depth && high <= low) {
                lower = high;
                upper = low;
            }
            if (move == NO_MOVE && old->depth == depth)
                move = old->move;
        } else if (old->depth > depth) {
            return;
        }
    }
    old->key = key;
    old->depth = depth;
    old->lower = (int32_t)lower;
    old->upper = (int32_t)upper;
    old->move = move;
    old->search = e->table.search;
}

/* A zeroed array of `size` slots. Each probe of a big table lands on another page: on
 * Linux the array is mapped on its own and asks for huge pages (a 2^20-entry table is 16
 * of them rather than 8,192 small ones, and a probe stops paying a page walk). */
static Slot *new_slots(size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    size_t bytes = size * sizeof(Slot);
    void *slots = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (slots == MAP_FAILED)
        return NULL;
    madvise(slots, bytes, MADV_HUGEPAGE);   /* a hint: without it the table works the same */
    return slots;
#else
    return calloc(size, sizeof(Slot));
#endif
}

static void free_slots(Slot *slots, size_t size) {
    if (slots == NULL)
        return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    munmap(slots, size * sizeof(Slot));
#else
    free(slots);
#endif
}

static int take_table(Engine *e, size_t size) {
    if (spare.slots != NULL && spare.size == size) {
        e->table = spare;
        spare.slots = NULL;
    } else {
        e->table.slots = new_slots(size);
        if (e->table.slots == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        e->table.size = size;
        e->table.search = 0;
    }
    if (++e->table.search == 0) {                      /* the stamps wrapped: clear once */
        memset(e->table.slots, 0, size * sizeof(Slot));
        e->table.search = 1;
    }
    return 0;
}

static void give_back_table(Engine *e) {
    if (e->table.slots == NULL)
        return;
    if (spare.slots == NULL || spare.size < e->table.size) {
        free_slots(spare.slots, spare.size);
        spare = e->table;
    } else {
        free_slots(e->table.slots, e->table.size);
    }
    e->table.slots = NULL;
    e->table.size = 0;
}

/* ---- the exact children's lines (core.py's _lines) ------------------------------------ */

static void lines_clear(Lines *l) {
    for (int i = 0; i < l->count; i++)
        Py_DECREF(l->lines[i]);
    l->count = 0;
}

static int lines_put(Lines *l, Move move, PyObject *line) {   /* steals `line` */
    if (l->count == l->capacity) {
        int capacity = l->capacity ? 2 * l->capacity : 8;
        Move *moves = realloc(l->moves, capacity * sizeof(Move));
        if (moves != NULL)
            l->moves = moves;
        PyObject **lines = moves == NULL ? NULL : realloc(l->lines, capacity * sizeof(PyObject *));
        if (lines == NULL) {
            Py_DECREF(line);
            PyErr_NoMemory();
            return -1;
        }
        l->lines = lines;
        l->capacity = capacity;
    }
    l->moves[l->count] = move;
    l->lines[l->count++] = line;
    return 0;
}

static PyObject *lines_get(const Lines *l, Move move) {       /* borrowed; NULL if none */
    for (int i = l->count - 1; i >= 0; i--)
        if (l->moves[i] == move)
            return l->lines[i];
    return NULL;
}

/* `move`'s line replaced by `line` (a new reference taken), or added: a dict's update. */
static int lines_set(Lines *l, Move move, PyObject *line) {
    for (int i = 0; i < l->count; i++)
        if (l->moves[i] == move) {
            Py_SETREF(l->lines[i], Py_NewRef(line));
            return 0;
        }
    return lines_put(l, move, Py_NewRef(line));
}

#endif
