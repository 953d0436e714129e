/* The compiled twin of the search frame (core.py's Search) for native trees.
 *
 * The frame in core.py (compiled with mypyc) calls the tree through Python calls, keeps the
 * table in a dict of tuples and passes windows as Python ints: with a compiled tree that
 * is most of the time of a Connect Four search (about 0.6 µs a node where Pons's solver
 * takes 0.08). This is the same frame, node for node, in C, for trees that offer their
 * methods as C functions (native_tree.h) and for every loop a variant has (engine_loops.h:
 * minimax and alpha-beta, PVS and Moreland's, Marsland's PVS, NegaScout and its fail-soft
 * form, Scout, Belle's root, the note's zwp), so that a time compares algorithms, not
 * frames. The drivers stay in Python: a pass is one call of Engine.root, except the MTD
 * drivers' zero-window passes, which run here in one call (Engine.zero_window_passes, the
 * loop of drivers.passes with its rules by name: a short search paid more for the Python
 * around each pass than for the pass).
 *
 * Everything mirrors core.py, table.py and alphabeta.py (the same names where they exist):
 * the counters in COUNTER_NAMES's order, the table's slot hash(key) % size and its
 * replacement rule, the hash move first, the leaf shortcut, the value bounds, the
 * principal variation kept as (move, rest) pairs at exact nodes, the node limit raised as
 * the exception the frame raises. What the Python frame does with a quiescence search, a
 * null move, check extensions or a tracing observer it does alone: engine.py hands such a
 * search to it. tests/test_engine.py compares the two frames search by search: scores,
 * best moves, principal variations and every counter.
 *
 * The engine's state (the counters, the table, the lines) is engine_state.h, the frame
 * engine_frame.h, the loops engine_loops.h; this file is the Python type around them and
 * the drivers' loops.
 *
 * The table: one array of slots, each stamped with the search that wrote it, so a new
 * search starts with an empty table without clearing one (a 2^20-entry table takes a
 * millisecond to clear, longer than a short Connect Four search). An engine takes the
 * process's spare table of its size when there is one and gives it back when freed.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "../games/native_tree.h"  /* the tree protocol, the C side of games/base.py */

#include "engine_state.h"
#include "engine_frame.h"
#include "engine_loops.h"
#include "engine_best_first.h"

/* ---- the Python type ------------------------------------------------------------------ */

/* Search.counters made the engine's: only the counts that moved since the last pass. */
static int sync_counters(Engine *e) {
    for (int i = 0; i < N_COUNTERS; i++) {
        if (e->counters[i] == e->synced[i])
            continue;
        PyObject *count = PyLong_FromLongLong(e->counters[i]);
        if (count == NULL || PyObject_SetAttr(e->counters_object, COUNTER_KEYS[i], count) < 0) {
            Py_XDECREF(count);
            return -1;
        }
        Py_DECREF(count);
        e->synced[i] = e->counters[i];
    }
    return 0;
}

static PyObject *pass_result(Engine *e, long value, Move move) {
    if (e->failed) {                         /* the counts so far, then the exception */
        PyObject *type, *error, *trace;
        PyErr_Fetch(&type, &error, &trace);
        sync_counters(e);
        PyErr_Restore(type, error, trace);
        return NULL;
    }
    if (sync_counters(e) < 0)
        return NULL;
    if (move == NO_MOVE)
        return Py_BuildValue("(lO)", value, Py_None);
    return Py_BuildValue("(lL)", value, (long long)move);
}

/* Search.root: one pass, its value, its best move in *move (NO_MOVE for None); with
 * e->failed set and an exception raised when it failed. The counters are synced by the
 * caller. */
static long root_pass(Engine *e, int depth, long alpha, long beta, Move *move) {
    long long *c = e->counters;
    c[PASSES]++;
    c[NODES]++;
    e->ply = 0;                              /* forget_lines */
    e->failed = 0;
    e->root_lower_bound = 0;
    e->next_check = c[NODES];                /* node_limit may be new: check at once */
    *move = NO_MOVE;
    Py_CLEAR(e->line);
    Py_CLEAR(e->root_line);
    e->facts[0].pv = 1;                      /* the root: a PV node, never pruned */
    e->facts[0].prunable = 0;
    if (depth <= 0) {
        c[LEAVES]++;
        return horizon(e, alpha, beta);
    }
    Move moves[NATIVE_MAX_MOVES];
    Children ch = {moves, 0, 1, 0, -1};
    long answer;
    if (settled(e, &ch, &alpha, &beta, &answer))
        return answer;
    Move hash_move = NO_MOVE;
    Key key = {0, 0};
    if (e->table.size)
        key = key_here(e);
    if (e->table.size && e->hash_move) {
        c[TT_PROBES]++;
        Slot *entry = probe(e, key);
        if (entry != NULL) {
            c[TT_HITS]++;
            hash_move = entry->move;
        }
    }
    long value = expand(e, e->root_loop, &ch, depth, alpha, beta, hash_move, key);
    if (!e->failed) {
        /* Refutation tables keep every node's line; the root's is the PV only when exact. */
        if (!e->refutations || (alpha < value && value < beta))
            e->root_line = e->line;
        else
            Py_XDECREF(e->line);
        e->line = NULL;
        *move = e->best_move;
        const Lines *root = &e->lines[0];
        for (int i = 0; e->refutations && i < root->count; i++)
            if (lines_set(&e->refutation_lines, root->moves[i], root->lines[i]) < 0) {
                fail(e);
                break;
            }
    }
    return value;
}

static int read_longs(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want,
                      const char *signature, long *out) {
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s takes %zd arguments (%zd given)", signature, want,
                     nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < want; i++)
        out[i] = PyLong_AsLong(args[i]);
    return PyErr_Occurred() ? -1 : 0;
}

/* Engine.root(depth, alpha, beta) -> (value, best move or None): Search.root, one pass,
 * its counts written to the counters object the engine was made with. */
static PyObject *Engine_root(Engine *e, PyObject *const *args, Py_ssize_t nargs) {
    long a[3];
    if (read_longs(args, nargs, 3, "root(depth, alpha, beta)", a) < 0)
        return NULL;
    Move move;
    long value = root_pass(e, (int)a[0], a[1], a[2], &move);
    return pass_result(e, value, move);
}

/* Engine.best_first(depth, dual, max_open) -> (value, best root move's index or None,
 * status: 0 ok, 1 max-open; nodes generated, OPEN's largest size): sss.py's best_first,
 * SSS* (dual: DUAL*) in C (engine_best_first.h); the counts written as a pass's are. */
static PyObject *Engine_best_first(Engine *e, PyObject *const *args, Py_ssize_t nargs) {
    long a[3];
    if (read_longs(args, nargs, 3, "best_first(depth, dual, max_open)", a) < 0)
        return NULL;
    BestFirst b;
    memset(&b, 0, sizeof b);
    long value = 0, best = -1, generated = 0, largest = 0;
    e->failed = 0;
    int status = bf_search(e, &b, (int)a[0], a[1] != 0, a[2], &value, &best, &generated,
                           &largest);
    bf_free(&b);
    if (status < 0) {
        e->failed = 1;
        return pass_result(e, 0, NO_MOVE);
    }
    if (sync_counters(e) < 0)
        return NULL;
    PyObject *index = best < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(best);
    if (index == NULL)
        return NULL;
    return Py_BuildValue("(lNill)", value, index, status, generated, largest);
}

/* Python's floor division (the drivers' //), for the bisection's midpoint. */
static inline long floor_div2(long x) {
    return x >= 0 ? x / 2 : -((-x + 1) / 2);
}

/* drivers._halve: x / 2 rounded towards 0, as C divides. */
static inline long halve(long x) {
    return x / 2;
}

enum { RULE_MTDF, RULE_BISECTION, RULE_PONS, RULE_SSS, RULE_DUAL, N_RULES };
static const char *const RULE_NAMES[] = {"mtdf", "bisection", "pons", "sss", "dual"};

/* The beta each MTD driver tests next (drivers.py's choices, by the rule's name there). */
static long choose_beta(int rule, long g, long lower, long upper) {
    switch (rule) {
    case RULE_MTDF:
        return g > lower + 1 ? g : lower + 1;
    case RULE_BISECTION:
        return floor_div2(lower + upper + 1);
    case RULE_PONS: {
        long med = lower + floor_div2(upper - lower);
        if (med <= 0 && halve(lower) < med)
            med = halve(lower);
        else if (med >= 0 && halve(upper) > med)
            med = halve(upper);
        return med + 1;
    }
    case RULE_SSS:
        return upper;
    default:
        return lower + 1;
    }
}

/* Engine.zero_window_passes(depth, max_passes, g, rule, lower, upper) -> (lower, upper,
 * best move or None): drivers._passes, the MTD loop, every pass in C; the counters are
 * written once, at its end (or where a pass failed). */
static PyObject *Engine_zero_window_passes(Engine *e, PyObject *const *args, Py_ssize_t nargs) {
    long a[6];
    if (read_longs(args, nargs, 6, "zero_window_passes(depth, max_passes, g, rule, lower, "
                   "upper)", a) < 0)
        return NULL;
    int depth = (int)a[0], rule = (int)a[3];
    long max_passes = a[1], g = a[2], lower = a[4], upper = a[5];
    if (rule < 0 || rule >= N_RULES) {
        PyErr_Format(PyExc_ValueError, "no rule %d (0 to %d)", rule, N_RULES - 1);
        return NULL;
    }
    Move best = NO_MOVE;
    for (long passes = 0; lower < upper && passes < max_passes; passes++) {
        long beta = choose_beta(rule, g, lower, upper);
        Move move;
        g = root_pass(e, depth, beta - 1, beta, &move);
        if (e->failed)
            return pass_result(e, 0, NO_MOVE);
        if (g < beta)
            upper = g;
        else {
            lower = g;
            best = move;
        }
    }
    if (sync_counters(e) < 0)
        return NULL;
    if (best == NO_MOVE)
        return Py_BuildValue("(llO)", lower, upper, Py_None);
    return Py_BuildValue("(llL)", lower, upper, (long long)best);
}

/* The names of line[0..length) (core.py's line_names, the tree's move_name at the node
 * each is played from), the tree at the line's start before and after. */
static PyObject *line_names(Engine *e, const Move *line, int length) {
    PyObject *names = PyList_New(length);
    int pushed = 0;
    for (; names != NULL && pushed < length; pushed++) {
        PyObject *move = PyLong_FromLongLong(line[pushed]);
        PyObject *name = move == NULL ? NULL
            : PyObject_CallMethodOneArg(e->tree, MOVE_NAME_NAME, move);
        Py_XDECREF(move);
        if (name == NULL)
            Py_CLEAR(names);
        else {
            PyList_SET_ITEM(names, pushed, name);
            e->api->push(e->tree, line[pushed]);
        }
    }
    for (int i = 0; i < pushed; i++)
        e->api->pop(e->tree);
    return names;
}

/* Engine.principal_variation(first, depth, names=False): Search.principal_variation, in
 * C; with `names`, Search.principal_variation_names (the moves by the tree's names). */
static PyObject *Engine_principal_variation(Engine *e, PyObject *args) {
    PyObject *first_object;
    int depth, names = 0;
    if (!PyArg_ParseTuple(args, "Oi|p:principal_variation", &first_object, &depth, &names))
        return NULL;
    if (first_object == Py_None)
        return PyList_New(0);
    Move first = PyLong_AsLongLong(first_object);
    if (first == -1 && PyErr_Occurred())
        return NULL;
    PyObject *rest = NULL;                   /* borrowed from root_line */
    if (e->root_line != NULL && PyLong_AsLongLong(PyTuple_GET_ITEM(e->root_line, 0)) == first)
        rest = PyTuple_GET_ITEM(e->root_line, 1);
    if (rest == Py_None)
        rest = NULL;
    Move line[MAX_PLY + 1];
    uint64_t seen[MAX_PLY + 2];
    int length = 0, seen_count = 0;
    seen[seen_count++] = e->api->key(e->tree);
    line[length++] = first;
    e->api->push(e->tree, first);
    while (length < depth && length <= MAX_PLY) {
        Key key = key_here(e);
        int repeated = 0;
        for (int i = 0; i < seen_count; i++)
            repeated |= seen[i] == key.id;
        if (repeated)
            break;
        seen[seen_count++] = key.id;
        Move move = NO_MOVE;
        if (rest != NULL) {
            move = PyLong_AsLongLong(PyTuple_GET_ITEM(rest, 0));
            rest = PyTuple_GET_ITEM(rest, 1);
            if (rest == Py_None)
                rest = NULL;
        } else if (e->table.size) {
            Slot *entry = probe(e, key);
            move = entry != NULL ? entry->move : NO_MOVE;
        }
        if (move == NO_MOVE)
            break;
        Move moves[NATIVE_MAX_MOVES];
        int n = e->api->moves(e->tree, moves), legal = 0;
        for (int i = 0; i < n; i++)
            legal |= moves[i] == move;
        if (!legal)
            break;
        line[length++] = move;
        e->api->push(e->tree, move);
    }
    PyObject *list = names ? NULL : PyList_New(length);
    for (int i = 0; i < length; i++) {
        e->api->pop(e->tree);
        if (list != NULL)
            PyList_SET_ITEM(list, i, PyLong_FromLongLong(line[i]));
    }
    return names ? line_names(e, line, length) : list;
}

/* Engine.counts() -> {name: count}: Counters.as_dict of the counters object, from the
 * engine's own counts (the same numbers: the object is written from them after a pass).
 * A copy of the zero counts with the others set: most counts of a search stay 0. */
static PyObject *ZERO_COUNTS;                /* every counter name with 0, in order */

static PyObject *Engine_counts(Engine *e, PyObject *unused) {
    PyObject *counts = PyDict_Copy(ZERO_COUNTS);
    for (int i = 0; counts != NULL && i < N_COUNTERS; i++) {
        if (e->counters[i] == 0)
            continue;
        PyObject *count = PyLong_FromLongLong(e->counters[i]);
        if (count == NULL || PyDict_SetItem(counts, COUNTER_KEYS[i], count) < 0)
            Py_CLEAR(counts);
        Py_XDECREF(count);
    }
    return counts;
}

static PyObject *Engine_get_root_line(Engine *e, void *unused) {
    return Py_NewRef(e->root_line != NULL ? e->root_line : Py_None);
}

/* A tuple of at most MAX_MARGINS ints (a game's margins) into out[]; its length, or -1 with
 * an exception set. */
static int read_margins(PyObject *tuple, long *out, const char *what) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) > MAX_MARGINS) {
        PyErr_Format(PyExc_ValueError, "selective margins %s: a tuple of at most %d ints",
                     what, MAX_MARGINS);
        return -1;
    }
    int n = (int)PyTuple_GET_SIZE(tuple);
    for (int i = 0; i < n; i++) {
        out[i] = PyLong_AsLong(PyTuple_GET_ITEM(tuple, i));
        if (out[i] == -1 && PyErr_Occurred())
            return -1;
    }
    return n;
}

/* The selective switches as core.py resolved them: (lmr, late_move_counts, futility,
 * reverse_futility, razoring, iid, mate). */
static int read_selective(PyObject *args, Selective *s) {
    PyObject *counts, *futility, *reverse, *razoring;
    if (!PyArg_ParseTuple(args, "pOOOOpl:selective", &s->lmr, &counts, &futility, &reverse,
                          &razoring, &s->iid, &s->mate))
        return 0;
    if ((s->late_move_count_n = read_margins(counts, s->late_move_counts, "late_move_counts")) < 0
        || (s->futility_n = read_margins(futility, s->futility, "futility")) < 0
        || (s->reverse_futility_n = read_margins(reverse, s->reverse_futility,
                                                 "reverse_futility")) < 0
        || (s->razoring_n = read_margins(razoring, s->razoring, "razoring")) < 0)
        return 0;
    int deepest = s->futility_n > s->reverse_futility_n ? s->futility_n : s->reverse_futility_n;
    s->static_depth = deepest > s->razoring_n ? deepest : s->razoring_n;
    return 1;
}

static PyObject *Engine_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    /* Positional only (NativeSearch's call): parsing keywords cost a search 1,200
     * instructions, twice the positional parse. */
    PyObject *tree, *limit_error, *counters, *selective_args;
    const char *loop_name;
    Selective rules;
    LoopParameters p;
    Py_ssize_t table_size;
    int hash_move, store_leaves, narrow_on_hit, value_bounds, quiescence, null_reduction,
        extend_checks, refutations = 0;
    const char *null_rule;
    if (kwargs != NULL && PyDict_GET_SIZE(kwargs) > 0) {
        PyErr_SetString(PyExc_TypeError, "Engine() takes its arguments by position");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "Os(ppiipppp)npppppispOOO!|p:Engine", &tree, &loop_name, &p.soft,
                          &p.moreland, &p.zw_min_depth, &p.research_min_depth, &p.improve,
                          &p.all_first, &p.pv_full, &p.researched_pv, &table_size,
                          &hash_move, &store_leaves, &narrow_on_hit, &value_bounds,
                          &quiescence, &null_reduction, &null_rule, &extend_checks,
                          &limit_error, &counters, &PyTuple_Type, &selective_args,
                          &refutations)
        || !read_selective(selective_args, &rules))
        return NULL;
    if (null_reduction < 0 || (strcmp(null_rule, "either") != 0 && strcmp(null_rule, "both") != 0)) {
        PyErr_Format(PyExc_ValueError, "null move: a reduction of 0 or more and the rule either "
                     "or both, not %d and %s", null_reduction, null_rule);
        return NULL;
    }
    int loop_kind = -1;
    for (int k = 0; k < N_NAMED_LOOPS; k++)
        if (strcmp(loop_name, LOOP_NAMES[k]) == 0)
            loop_kind = k;
    if (loop_kind < 0) {
        PyErr_Format(PyExc_ValueError, "loop %s: the compiled frame has no such loop "
                     "(harness.search._engine.LOOPS)", loop_name);
        return NULL;
    }
    if (table_size < 0) {
        PyErr_SetString(PyExc_ValueError, "a table size is not negative");
        return NULL;
    }
    PyObject *capsule = PyObject_CallMethodNoArgs(tree, NATIVE_TREE_NAME);
    if (capsule == NULL)
        return NULL;
    /* The functions are called on the capsule's tree, which must be `tree` itself: a
     * wrapper that hands on its tree's capsule (or a subclass, which gets None) keeps
     * the Python frame, which calls its own methods. */
    const NativeTree *api = capsule == Py_None ? NULL
        : PyCapsule_GetPointer(capsule, NATIVE_TREE_CAPSULE);
    if (api == NULL || api->version != NATIVE_TREE_VERSION
            || PyCapsule_GetContext(capsule) != tree) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, api == NULL || api->version == NATIVE_TREE_VERSION
                            ? "the tree offers no native methods of its own"
                            : "the tree's native interface is another version");
        Py_DECREF(capsule);
        return NULL;
    }
    const char *lacking = quiescence && (api->quiesce == NULL || api->child_quiesce == NULL)
        ? "quiescence" : null_reduction && (api->push_null == NULL || api->null_allowed == NULL)
        ? "null move" : extend_checks && api->in_check == NULL ? "checks"
        : (rules.lmr || rules.late_move_count_n || rules.static_depth || rules.mate)
          && api->tactical == NULL ? "selective" : NULL;
    if (lacking != NULL) {           /* the names of abilities() */
        PyErr_Format(PyExc_ValueError, "the tree offers no native %s", lacking);
        Py_DECREF(capsule);
        return NULL;
    }
    /* Not tp_alloc, which zeroes the whole struct: its lines (3 KB) are zeroed ply by
     * ply as a search first reaches them (expand), which a short search rarely does far
     * (zeroing them cost a Connect Four end-game search 4,000 instructions of 109,000).
     * The type has no subclasses and no GC, so this is all tp_alloc did. */
    Engine *e = (Engine *)PyObject_Malloc(sizeof(Engine));
    if (e == NULL) {
        Py_DECREF(capsule);
        PyErr_NoMemory();
        return NULL;
    }
    memset(e, 0, offsetof(Engine, lines));
    PyObject_Init((PyObject *)e, type);
    e->tree = Py_NewRef(tree);
    e->capsule = capsule;
    e->api = api;
    e->limit_error = Py_NewRef(limit_error);
    e->counters_object = Py_NewRef(counters);  /* a new search's: every count 0, as synced */
    e->root_loop = loop_kind;
    e->loop = p;
    e->hash_move = hash_move;
    e->store_leaves = store_leaves && table_size > 0;
    e->narrow_on_hit = narrow_on_hit && table_size > 0;
    e->value_bounds = value_bounds && api->value_bound != NULL;
    e->quiescence = quiescence;
    e->null_reduction = null_reduction;
    e->null_either = strcmp(null_rule, "either") == 0;
    e->extend_checks = extend_checks;
    e->leaf_shortcut = !null_reduction && !extend_checks && !e->store_leaves;
    e->rules = rules;
    e->rules.iid = rules.iid && table_size > 0 && hash_move;
    e->selective = rules.lmr || rules.late_move_count_n || rules.static_depth || e->rules.iid
        || rules.mate;
    e->checks = extend_checks || (e->selective && api->in_check != NULL);
    e->refutations = refutations;
    /* Staged children where the tree offers them and nothing needs the whole list first
     * (refutation_move looks through it, IID searches it twice). */
    e->staged = api->first_moves != NULL && !refutations && !e->rules.iid;
    e->node_limit = (long long)1 << 62;
    e->best_move = NO_MOVE;
    if (table_size > 0 && take_table(e, (size_t)table_size) < 0) {
        Py_DECREF(e);
        return NULL;
    }
    return (PyObject *)e;
}

static void Engine_dealloc(Engine *e) {
    give_back_table(e);
    for (int p = 0; p < e->plies_used; p++) {
        lines_clear(&e->lines[p]);
        free(e->lines[p].moves);
        free(e->lines[p].lines);
    }
    lines_clear(&e->refutation_lines);
    free(e->refutation_lines.moves);
    free(e->refutation_lines.lines);
    Py_XDECREF(e->line);
    Py_XDECREF(e->root_line);
    Py_XDECREF(e->tree);
    Py_XDECREF(e->capsule);
    Py_XDECREF(e->limit_error);
    Py_XDECREF(e->counters_object);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static PyMemberDef Engine_members[] = {
    {"node_limit", T_LONGLONG, offsetof(Engine, node_limit), 0,
     "Raise limit_error when nodes exceeds this."},
    {"root_lower_bound", T_INT, offsetof(Engine, root_lower_bound), READONLY,
     "Whether the last pass's value is only a lower bound (Belle's pending move)."},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef Engine_getset[] = {
    {"root_line", (getter)Engine_get_root_line, NULL,
     "The root's line of the last pass, when its value was exact: (move, rest) pairs.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Engine_methods[] = {
    {"root", (PyCFunction)(void (*)(void))Engine_root, METH_FASTCALL,
     "root(depth, alpha, beta) -> (value, best move or None): one pass (Search.root)."},
    {"best_first", (PyCFunction)(void (*)(void))Engine_best_first, METH_FASTCALL,
     "best_first(depth, dual, max_open) -> (value, best index or None, status, generated, "
     "largest): SSS* (DUAL*) in C"},
    {"zero_window_passes", (PyCFunction)(void (*)(void))Engine_zero_window_passes, METH_FASTCALL,
     "zero_window_passes(depth, max_passes, g, rule, lower, upper) -> (lower, upper, best "
     "move or None): the MTD drivers' passes (drivers._passes)."},
    {"counts", (PyCFunction)Engine_counts, METH_NOARGS,
     "counts() -> {name: count}: every counter so far (Counters.as_dict)."},
    {"principal_variation", (PyCFunction)Engine_principal_variation, METH_VARARGS,
     "principal_variation(first, depth, names=False) -> [moves] (Search.principal_variation), "
     "or with names their names (Search.principal_variation_names)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "harness.search._engine.Engine",
    .tp_doc = PyDoc_STR("Engine(tree, loop, parameters, table_size, hash_move, store_leaves, narrow_on_hit, "
                        "value_bounds, limit_error, counters)\n\nThe compiled twin of the search frame "
                        "for a native tree (see harness/search/engine.py)."),
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Engine_new,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_members = Engine_members,
    .tp_getset = Engine_getset,
};

/* abilities(tree) -> the names of what the tree's native methods offer beyond the protocol
 * ("quiescence", "null move", "checks", "selective"); () for a tree without native methods. */
static PyObject *abilities(PyObject *module, PyObject *tree) {
    PyObject *capsule = PyObject_CallMethodNoArgs(tree, NATIVE_TREE_NAME);
    if (capsule == NULL)
        return NULL;
    const NativeTree *api = capsule == Py_None ? NULL
        : PyCapsule_GetPointer(capsule, NATIVE_TREE_CAPSULE);
    Py_DECREF(capsule);
    if (api == NULL || api->version != NATIVE_TREE_VERSION) {
        PyErr_Clear();
        return PyTuple_New(0);
    }
    PyObject *names = PyList_New(0);
    if (names == NULL)
        return NULL;
    const char *offered[4] = {api->quiesce && api->child_quiesce ? "quiescence" : NULL,
                              api->push_null && api->null_allowed ? "null move" : NULL,
                              api->in_check ? "checks" : NULL,
                              api->tactical ? "selective" : NULL};
    for (int i = 0; i < 4; i++) {
        PyObject *name = offered[i] == NULL ? NULL : PyUnicode_FromString(offered[i]);
        if (offered[i] != NULL && (name == NULL || PyList_Append(names, name) < 0)) {
            Py_XDECREF(name);
            Py_DECREF(names);
            return NULL;
        }
        Py_XDECREF(name);
    }
    PyObject *tuple = PyList_AsTuple(names);
    Py_DECREF(names);
    return tuple;
}

/* poll_signals(): run Python's handlers of the signals that arrived (Ctrl-C, SIGTERM), so
 * that one raises here. The compiled Python frame (mypyc) calls it every SIGNAL_INTERVAL
 * nodes: compiled code never passes through the interpreter's loop, where they would run. */
static PyObject *poll_signals(PyObject *module, PyObject *unused) {
    if (PyErr_CheckSignals() < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef module_functions[] = {
    {"abilities", abilities, METH_O,
     "abilities(tree)\n\nWhat the tree's native methods offer beyond the protocol."},
    {"poll_signals", poll_signals, METH_NOARGS,
     "poll_signals()\n\nRun the handlers of the signals that arrived; one may raise."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine",
    "The compiled twin of the search frame (harness.search.engine chooses it).", -1,
    module_functions,
};

static PyObject *names_tuple(const char *const *names, int n) {
    PyObject *tuple = PyTuple_New(n);
    for (int i = 0; tuple != NULL && i < n; i++)
        PyTuple_SET_ITEM(tuple, i, PyUnicode_FromString(names[i]));
    return tuple;
}

/* The selective rules' numbers (engine_state.h), as module attributes, which
 * tests/test_selective.py holds equal to selective.py's. */
static int selective_constants(PyObject *m) {
    PyObject *rows = PyTuple_New(N_LMR_STEPS);
    if (rows == NULL)
        return -1;
    for (int i = 0; i < N_LMR_STEPS; i++) {
        PyObject *row = Py_BuildValue("(iii)", LMR_STEPS[i][0], LMR_STEPS[i][1], LMR_STEPS[i][2]);
        if (row == NULL) {
            Py_DECREF(rows);
            return -1;
        }
        PyTuple_SET_ITEM(rows, i, row);
    }
    if (PyModule_AddObject(m, "LATE_MOVE_REDUCTIONS", rows) < 0) {
        Py_DECREF(rows);
        return -1;
    }
    return PyModule_AddIntConstant(m, "IID_DEPTH", IID_DEPTH) < 0
        || PyModule_AddIntConstant(m, "IID_REDUCTION", IID_REDUCTION) < 0
        || PyModule_AddIntConstant(m, "MATE_WINDOW", MATE_WINDOW) < 0 ? -1 : 0;
}

PyMODINIT_FUNC PyInit__engine(void) {
    if (PyType_Ready(&EngineType) < 0)
        return NULL;
    PyObject *zero = PyLong_FromLong(0);
    if (zero == NULL || (ZERO_COUNTS = PyDict_New()) == NULL
            || (NATIVE_TREE_NAME = PyUnicode_InternFromString("native_tree")) == NULL
            || (MOVE_NAME_NAME = PyUnicode_InternFromString("move_name")) == NULL)
        return NULL;
    for (int i = 0; i < N_COUNTERS; i++)
        if ((COUNTER_KEYS[i] = PyUnicode_InternFromString(COUNTER_NAMES[i])) == NULL
                || PyDict_SetItem(ZERO_COUNTS, COUNTER_KEYS[i], zero) < 0)
            return NULL;
    Py_DECREF(zero);
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    PyObject *names = names_tuple(COUNTER_NAMES, N_COUNTERS), *loops = names_tuple(LOOP_NAMES, N_NAMED_LOOPS),
        *rules = names_tuple(RULE_NAMES, N_RULES);
    Py_INCREF(&EngineType);
    if (names == NULL || loops == NULL || rules == NULL
            || PyModule_AddObject(m, "COUNTER_NAMES", names) < 0
            || PyModule_AddObject(m, "LOOPS", loops) < 0
            || PyModule_AddObject(m, "RULES", rules) < 0
            || PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0
            || selective_constants(m) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
