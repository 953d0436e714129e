/* The frame (core.py's Search, node for node) of the compiled engine (_engine.c, the only
 * file that includes this): child, test, research, bounded, expand and node. The loops
 * are engine_loops.h. */
#ifndef HARNESS_SEARCH_ENGINE_FRAME_H
#define HARNESS_SEARCH_ENGINE_FRAME_H

/* ---- the frame (core.py) ------------------------------------------------------------------ */

static long node(Engine *e, int loop, int depth, long alpha, long beta);
static void run_loop(Engine *e, int loop, const Move *moves, int n, int depth, long alpha,
                     long beta, long *value, int *last, Move *best_move);

static long fail(Engine *e) {                /* an exception is set: unwind */
    e->failed = 1;
    return 0;
}

/* Every SIGNAL_INTERVAL nodes, and at the node limit (next_check is the nearer of the two):
 * 1 (an exception set) when the search must stop, at its limit or for a signal (Ctrl-C,
 * SIGTERM: Python runs its handlers only when asked from C, so a search in C asks); else 0,
 * with the next check set. It changes no count. */
static int must_stop(Engine *e) {
    long long nodes = e->counters[NODES];
    if (nodes > e->node_limit) {
        PyErr_SetNone(e->limit_error);
        return 1;
    }
    if (PyErr_CheckSignals() < 0)
        return 1;
    e->next_check = nodes + SIGNAL_INTERVAL < e->node_limit ? nodes + SIGNAL_INTERVAL
                                                            : e->node_limit;
    return 0;
}

/* Search.horizon: the tree's quiescence search (its nodes counted as qnodes) or its
 * static value. */
static inline long horizon(Engine *e, long alpha, long beta) {
    if (e->quiescence)
        return e->api->quiesce(e->tree, alpha, beta, &e->counters[QNODES]);
    return e->api->value(e->tree);
}

/* Search.child: the leaf shortcut (a leaf evaluated from its parent when nothing but the
 * horizon looks at it: no null move, no check extension, no leaves in the table), or the
 * node, searched with `loop`. */
static long child(Engine *e, int loop, Move move, int depth, long alpha, long beta) {
    if (depth <= 0 && e->leaf_shortcut) {
        if (++e->counters[NODES] > e->next_check && must_stop(e))
            return fail(e);
        e->counters[LEAVES]++;
        if (e->quiescence)
            return e->api->child_quiesce(e->tree, move, alpha, beta, &e->counters[QNODES]);
        return e->api->child_value(e->tree, move);
    }
    e->api->push(e->tree, move);
    e->ply++;
    long value = node(e, loop, depth, alpha, beta);
    e->ply--;
    e->api->pop(e->tree);
    if (e->failed)
        return 0;
    if (e->line != NULL) {                   /* the child's value is exact: keep its line */
        PyObject *line = e->line;
        e->line = NULL;
        if (lines_put(&e->lines[e->ply], move, line) < 0)
            return fail(e);
    }
    return value;
}

/* Search.null_child: the position after passing, searched with `loop` (a zero window:
 * its value is never exact, and a line below it is not ours). */
static long null_child(Engine *e, int loop, int depth, long alpha, long beta) {
    e->api->push_null(e->tree);
    e->ply++;
    long value = node(e, loop, depth, alpha, beta);
    e->ply--;
    e->api->pop(e->tree);
    Py_CLEAR(e->line);
    return value;
}

/* Search.test: child, as a zero-window test, counted when the testing node's window was
 * wider than a zero window (`wide`, read by its loop on entry). */
static inline long test(Engine *e, int loop, Move move, int depth, long alpha, long beta,
                        int wide) {
    if (wide)
        e->counters[ZW_SEARCHES]++;
    return child(e, loop, move, depth, alpha, beta);
}

/* Search.research: child, counted as a re-search after a failed test; its nodes counted
 * once, by the outermost re-search. */
static long research(Engine *e, int loop, Move move, int depth, long alpha, long beta) {
    long long *c = e->counters;
    c[RESEARCHES]++;
    if (e->researching)
        return child(e, loop, move, depth, alpha, beta);
    e->researching = 1;
    long long start = c[NODES];
    long value = child(e, loop, move, depth, alpha, beta);
    if (e->failed)                           /* as the Python frame's exception: uncounted */
        return 0;
    c[RESEARCH_NODES] += c[NODES] - start;
    e->researching = 0;
    return value;
}

/* Search.bounded: 1 and the answer when the tree's bounds leave no window. */
static int bounded(Engine *e, long *alpha, long *beta, long *answer) {
    long floor = e->api->value_floor ? e->api->value_floor(e->tree) : -INF;
    if (*alpha < floor) {
        *alpha = floor;
        if (*alpha >= *beta) {
            e->counters[BOUND_CUTOFFS]++;
            *answer = *alpha;
            return 1;
        }
    }
    long bound = e->api->value_bound(e->tree);
    if (*beta > bound) {
        *beta = bound;
        if (*alpha >= *beta) {
            e->counters[BOUND_CUTOFFS]++;
            *answer = *beta;
            return 1;
        }
    }
    return 0;
}

/* A node with no move ends the game (a leaf, its terminal value); a node whose value bounds
 * leave no window is answered by them (bounded). Either: 1 and the value in *answer; else 0
 * and the node's moves in moves[0..*n). */
static inline int settled(Engine *e, Move *moves, int *n, long *alpha, long *beta, long *answer) {
    *n = e->api->moves(e->tree, moves);
    if (*n == 0) {
        e->counters[LEAVES]++;
        *answer = e->api->terminal_value(e->tree);
        return 1;
    }
    return e->value_bounds && bounded(e, alpha, beta, answer);
}

/* Search.expand: the loop over the children (hash move first), the node classified, stored. */
static long expand(Engine *e, int loop, Move *moves, int n, int depth, long alpha, long beta,
                   Move hash_move, Key key) {
    if (hash_move != NO_MOVE && moves[0] != hash_move) {
        for (int k = 1; k < n; k++)
            if (moves[k] == hash_move) {
                memmove(moves + 1, moves, k * sizeof(Move));
                moves[0] = hash_move;
                break;
            }
    }
    if (e->table.size && e->api->child_key != NULL && (depth > 1 || e->store_leaves)) {
        /* The children the loop may search probe the table first thing, each a cache
         * miss: ask for their slots now, so the misses overlap rather than follow one
         * another (Stockfish prefetches its entry as it makes a move). Counts nothing. */
        for (int i = 0; i < n; i++)
            PREFETCH(slot_of(e, e->api->child_key(e->tree, moves[i])));
    }
    int ply = e->ply;
    if (ply >= e->plies_used) {              /* first reached: its lines are zeroed now */
        memset(&e->lines[e->plies_used], 0, (ply + 1 - e->plies_used) * sizeof(Lines));
        e->plies_used = ply + 1;
    }
    lines_clear(&e->lines[ply]);
    long value = 0;
    int last = 0;
    Move best = NO_MOVE;
    run_loop(e, loop, moves, n, depth, alpha, beta, &value, &last, &best);
    if (e->failed)
        return 0;
    long long *c = e->counters;
    if (value >= beta) {
        c[FAIL_HIGHS]++;
        c[CUT_NODES]++;
        if (last == 0)
            c[FAIL_HIGHS_FIRST]++;
        if (last < n - 1)
            c[CUTOFFS]++;
        if (best != NO_MOVE && e->api->cutoff != NULL)
            e->api->cutoff(e->tree, best, depth);
    } else if (value <= alpha) {
        c[FAIL_LOWS]++;
        c[ALL_NODES]++;
    } else {
        c[PV_NODES]++;
        if (best != NO_MOVE) {
            PyObject *rest = lines_get(&e->lines[ply], best);
            e->line = Py_BuildValue("(LO)", (long long)best, rest != NULL ? rest : Py_None);
            if (e->line == NULL)
                return fail(e);
        }
    }
    if (e->table.size)
        store(e, key, depth, alpha, beta, value, best);
    e->best_move = best;
    return value;
}

/* Search.node: count, stop at a leaf or a table cutoff, else expand. */
static long node(Engine *e, int loop, int depth, long alpha, long beta) {
    long long *c = e->counters;
    if (++c[NODES] > e->next_check && must_stop(e))
        return fail(e);
    if (e->ply > MAX_PLY) {
        PyErr_SetString(PyExc_RecursionError, "the compiled frame: deeper than its stack");
        return fail(e);
    }
    if (e->extend_checks && e->api->in_check(e->tree))
        depth++;
    if (depth <= 0 && !e->store_leaves) {
        c[LEAVES]++;
        return horizon(e, alpha, beta);
    }
    Move hash_move = NO_MOVE;
    Key key = {0, 0};                        /* read once: the probe's and the store's */
    if (e->table.size) {
        c[TT_PROBES]++;
        key = key_here(e);
        Slot *entry = probe(e, key);
        if (entry != NULL) {
            c[TT_HITS]++;
            if (entry->depth >= depth) {
                long lower = entry->lower, upper = entry->upper;
                int deeper = entry->depth > depth;
                if (lower >= beta || lower == upper) {
                    c[TT_CUTOFFS]++;
                    c[TT_DEEP_CUTOFFS] += deeper;
                    return lower;
                }
                if (upper <= alpha) {
                    c[TT_CUTOFFS]++;
                    c[TT_DEEP_CUTOFFS] += deeper;
                    return upper;
                }
                if (e->narrow_on_hit && (lower > alpha || upper < beta)) {
                    c[TT_DEEP_CUTOFFS] += deeper;
                    if (lower > alpha)
                        alpha = lower;
                    if (upper < beta)
                        beta = upper;
                }
            }
            if (e->hash_move)
                hash_move = entry->move;
        }
    }
    if (depth <= 0) {                        /* a leaf the table did not settle: store it */
        c[LEAVES]++;
        long value = horizon(e, alpha, beta);
        if (e->table.size)
            store(e, key, 0, alpha, beta, value, NO_MOVE);
        return value;
    }
    Move moves[NATIVE_MAX_MOVES];
    int n;
    long answer;
    if (settled(e, moves, &n, &alpha, &beta, &answer))
        return answer;
    int r = e->null_reduction;
    if (r && depth > r && beta < INF && e->api->null_allowed(e->tree, e->null_either)) {
        c[NULL_SEARCHES]++;
        long v = -null_child(e, loop, depth - 1 - r, -beta, -beta + 1);
        if (e->failed)
            return 0;
        if (v >= beta) {                     /* passing already fails high: a cut node */
            c[NULL_CUTOFFS]++;
            c[FAIL_HIGHS]++;
            c[CUT_NODES]++;
            c[CUTOFFS]++;
            if (e->table.size)
                store(e, key, depth, alpha, beta, beta, NO_MOVE);
            return beta;
        }
    }
    return expand(e, loop, moves, n, depth, alpha, beta, hash_move, key);
}

#endif
