/* The native interface (native_tree.h) of a compiled board tree: the cursor's operations
 * (board_cursor.h, the only file that includes this) as the C calls of the compiled frame,
 * and the optional ones a game defines (BOARD_VALUE_BOUND ... BOARD_NULL_MOVE, described in
 * board_cursor.h's comment), each NULL in the table where the game leaves it undefined. */
#ifndef HARNESS_BOARD_NATIVE_H
#define HARNESS_BOARD_NATIVE_H

static int native_moves(PyObject *t, Move *out) {
    int n = board_moves(TREE(t), out);
    return n > NATIVE_MAX_MOVES ? NATIVE_MAX_MOVES : n;   /* more than any position has */
}

static void native_push(PyObject *t, Move move) { board_push(TREE(t), move); }
static void native_pop(PyObject *t) { board_pop(TREE(t)); }
static uint64_t native_key(PyObject *t) { return board_key(TREE(t)); }
static long native_value(PyObject *t) { return board_value(TREE(t)); }
static long native_terminal_value(PyObject *t) { return board_terminal_value(TREE(t)); }

static long native_child_value(PyObject *t, Move move) {
    return board_child_value(TREE(t), move);
}

static uint64_t native_child_key(PyObject *t, Move move) {
    return board_child_key(TREE(t), move);
}

#ifdef BOARD_VALUE_BOUND
static long native_value_bound(PyObject *t) {
    return BOARD_VALUE_BOUND(&TREE(t)->game, board_here(TREE(t)));
}
#define BOARD_NATIVE_VALUE_BOUND native_value_bound
#else
#define BOARD_NATIVE_VALUE_BOUND NULL
#endif

#ifdef BOARD_VALUE_FLOOR
static long native_value_floor(PyObject *t) {
    return BOARD_VALUE_FLOOR(&TREE(t)->game, board_here(TREE(t)));
}
#define BOARD_NATIVE_VALUE_FLOOR native_value_floor
#else
#define BOARD_NATIVE_VALUE_FLOOR NULL
#endif

#ifdef BOARD_TACTICAL
static int native_tactical(PyObject *t, Move move) {
    return BOARD_TACTICAL(&TREE(t)->game, board_here(TREE(t)), move);
}
#define BOARD_NATIVE_TACTICAL native_tactical
#else
#define BOARD_NATIVE_TACTICAL NULL
#endif

#ifdef BOARD_CUTOFF
static void native_cutoff(PyObject *t, Move move, int depth) { BOARD_CUTOFF(TREE(t), move, depth); }
#define BOARD_NATIVE_CUTOFF native_cutoff
#else
#define BOARD_NATIVE_CUTOFF NULL     /* the move order is static */
#endif

#ifdef BOARD_SLOT_HASH
static uint64_t native_slot_hash(PyObject *t) { return BOARD_SLOT_HASH(TREE(t)); }
#define BOARD_NATIVE_SLOT_HASH native_slot_hash
#else
#define BOARD_NATIVE_SLOT_HASH NULL
#endif

#ifdef BOARD_KEY_AND_SLOT
static uint64_t native_key_and_slot(PyObject *t, uint64_t *slot_hash) {
    return BOARD_KEY_AND_SLOT(TREE(t), slot_hash);
}
#define BOARD_NATIVE_KEY_AND_SLOT native_key_and_slot
#else
#define BOARD_NATIVE_KEY_AND_SLOT NULL
#endif

#ifdef BOARD_QUIESCE
static long native_quiesce(PyObject *t, long alpha, long beta, long long *qnodes) {
    return BOARD_QUIESCE(TREE(t), alpha, beta, qnodes);
}

static long native_child_quiesce(PyObject *t, Move move, long alpha, long beta,
                                 long long *qnodes) {
#ifdef BOARD_CHILD_QUIESCE
    return BOARD_CHILD_QUIESCE(TREE(t), move, alpha, beta, qnodes);
#else
    board_push(TREE(t), move);
    long value = BOARD_QUIESCE(TREE(t), alpha, beta, qnodes);
    board_pop(TREE(t));
    return value;
#endif
}
#define BOARD_NATIVE_QUIESCE native_quiesce
#define BOARD_NATIVE_CHILD_QUIESCE native_child_quiesce
#else
#define BOARD_NATIVE_QUIESCE NULL
#define BOARD_NATIVE_CHILD_QUIESCE NULL
#endif

#ifdef BOARD_IN_CHECK
static int native_in_check(PyObject *t) {
    return BOARD_IN_CHECK(&TREE(t)->game, board_here(TREE(t)));
}
#define BOARD_NATIVE_IN_CHECK native_in_check
#else
#define BOARD_NATIVE_IN_CHECK NULL
#endif

#ifdef BOARD_NULL_MOVE
static void native_push_null(PyObject *t) { board_push(TREE(t), BOARD_NULL_MOVE); }
static int native_null_allowed(PyObject *t, int either) { return BOARD_NULL_ALLOWED(TREE(t), either); }
#define BOARD_NATIVE_PUSH_NULL native_push_null
#define BOARD_NATIVE_NULL_ALLOWED native_null_allowed
#else
#define BOARD_NATIVE_PUSH_NULL NULL
#define BOARD_NATIVE_NULL_ALLOWED NULL
#endif

#ifdef BOARD_STAGED_MOVES
static int native_first_moves(PyObject *t, Move *out, int *complete) {
    return board_first_moves(TREE(t), out, complete);
}
static int native_rest_moves(PyObject *t, Move *out) { return board_rest_moves(TREE(t), out); }
static int native_has_rest(PyObject *t) { return board_has_rest(TREE(t)); }
#define BOARD_NATIVE_FIRST_MOVES native_first_moves
#define BOARD_NATIVE_REST_MOVES native_rest_moves
#define BOARD_NATIVE_HAS_REST native_has_rest
#else
#define BOARD_NATIVE_FIRST_MOVES NULL
#define BOARD_NATIVE_REST_MOVES NULL
#define BOARD_NATIVE_HAS_REST NULL
#endif

static const NativeTree NATIVE = {
    .version = NATIVE_TREE_VERSION,
    .moves = native_moves,
    .push = native_push,
    .pop = native_pop,
    .key = native_key,
    .value = native_value,
    .terminal_value = native_terminal_value,
    .child_value = native_child_value,
    .value_bound = BOARD_NATIVE_VALUE_BOUND,
    .value_floor = BOARD_NATIVE_VALUE_FLOOR,
    .cutoff = BOARD_NATIVE_CUTOFF,
    .child_key = native_child_key,
    .slot_hash = BOARD_NATIVE_SLOT_HASH,
    .key_and_slot = BOARD_NATIVE_KEY_AND_SLOT,
    .quiesce = BOARD_NATIVE_QUIESCE,
    .child_quiesce = BOARD_NATIVE_CHILD_QUIESCE,
    .in_check = BOARD_NATIVE_IN_CHECK,
    .push_null = BOARD_NATIVE_PUSH_NULL,
    .null_allowed = BOARD_NATIVE_NULL_ALLOWED,
    .tactical = BOARD_NATIVE_TACTICAL,  /* NULL: no selective switches */
    .first_moves = BOARD_NATIVE_FIRST_MOVES,
    .rest_moves = BOARD_NATIVE_REST_MOVES,
    .has_rest = BOARD_NATIVE_HAS_REST,
};

static PyObject *Tree_native_tree(Tree *self, PyObject *unused) {
    return native_tree_capsule((PyObject *)self, &TreeType, &NATIVE);
}

#endif
