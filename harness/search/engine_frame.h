/* The frame (core.py's Search, node for node) of the compiled engine (_engine.c, the only
 * file that includes this): child, test, research, bounded, expand and node. The loops
 * are engine_loops.h. */
#ifndef HARNESS_SEARCH_ENGINE_FRAME_H
#define HARNESS_SEARCH_ENGINE_FRAME_H

/* ---- the frame (core.py) ------------------------------------------------------------------ */

/* A node's children in search order: moves[0..n) known, and with complete 0 more that the
 * tree's rest_moves gives (staged generation: a cut node is often settled by its first
 * moves, its captures, and its quiet ones are then never generated). */
typedef struct {
    Move *moves;
    int n, complete;
    int prefetch;                            /* the children probe the table: prefetch */
    int ahead;                               /* the last child whose slot was asked for */
} Children;

static long node(Engine *e, int loop, int depth, long alpha, long beta);
static void run_loop(Engine *e, int loop, Children *ch, int depth, long alpha, long beta,
                     long *value, int *last, Move *best_move);

/* A child probes the table first thing, most often a cache miss: its slot is asked for
 * one child ahead, as the loop reaches the child before it, so the miss overlaps that
 * child's search (Stockfish prefetches its entry as it makes a move). A cut node, which
 * mostly searches one child, pays for one more child's key; a node that searches them all
 * stops waiting on each. Counts nothing. */
static inline void prefetch_child(Engine *e, Children *ch, int i) {
    if (ch->prefetch && i > ch->ahead && i < ch->n) {
        ch->ahead = i;
        PREFETCH(slot_of(e, e->api->child_key(e->tree, ch->moves[i])));
    }
}

/* Whether the node has an i-th child (i at most n), its rest asked for when the known ones
 * run out; the cursor is at the node. The next child's slot is prefetched. */
static inline int has_child(Engine *e, Children *ch, int i) {
    if (i >= ch->n) {
        if (ch->complete)
            return 0;
        ch->n += e->api->rest_moves(e->tree, ch->moves + ch->n);
        ch->complete = 1;
        if (i >= ch->n)
            return 0;
    }
    prefetch_child(e, ch, i + 1);
    return 1;
}

/* Whether a child follows the i-th: what a cut node's cutoffs counter asks (core.py's
 * last < len(moves) - 1), without the rest made. */
static inline int child_after(Engine *e, const Children *ch, int i) {
    return i < ch->n - 1 || (!ch->complete && e->api->has_rest(e->tree));
}

/* selective.reduction: plies a quiet late move loses (LMR_STEPS). */
static inline int reduction(int depth, int index) {
    int plies = 0;
    for (int i = 0; i < N_LMR_STEPS; i++)
        if (depth >= LMR_STEPS[i][0] && index >= LMR_STEPS[i][1])
            plies = LMR_STEPS[i][2];
    return plies;
}

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

/* The move a line (a tuple (move, rest)) starts with. */
static inline Move line_move(PyObject *line) {
    return (Move)PyLong_AsLongLong(PyTuple_GET_ITEM(line, 0));
}

/* Search.follow_refutation: the part of the refutation line the child reached by `move`
 * follows (a root move's own line; below, the rest of the parent's when `move` is its
 * next move; else none). */
static inline void follow_refutation(Engine *e, Move move) {
    int ply = e->ply;
    PyObject *below = NULL;
    if (ply == 0)
        below = lines_get(&e->refutation_lines, move);
    else {
        PyObject *line = e->refute[ply];
        if (line != NULL && line_move(line) == move) {
            PyObject *rest = PyTuple_GET_ITEM(line, 1);
            below = rest == Py_None ? NULL : rest;
        }
    }
    e->refute[ply + 1] = below;
}

/* Search.refutation_move: the refutation line's next move where it is legal here (counted),
 * else NO_MOVE. */
static inline Move refutation_move(Engine *e, const Move *moves, int n) {
    PyObject *line = e->refute[e->ply];
    if (line == NULL)
        return NO_MOVE;
    Move move = line_move(line);
    for (int k = 0; k < n; k++)
        if (moves[k] == move) {
            e->counters[REFUTATION_MOVES]++;
            return move;
        }
    return NO_MOVE;
}

static long searched_node(Engine *e, int loop, Move move, int depth, long alpha, long beta);

/* Search.searched_child: the leaf shortcut (a leaf evaluated from its parent when nothing
 * but the horizon looks at it: no null move, no check extension, no leaves in the table),
 * or the node, searched with `loop`. The shortcut, most of a search's nodes, is inlined
 * into the loops: apart, each leaf paid for saving the registers the node path needs. */
static inline long searched_child(Engine *e, int loop, Move move, int depth, long alpha,
                                  long beta) {
    if (depth <= 0 && e->leaf_shortcut) {
        if (++e->counters[NODES] > e->next_check && must_stop(e))
            return fail(e);
        e->counters[LEAVES]++;
        if (e->quiescence)
            return e->api->child_quiesce(e->tree, move, alpha, beta, &e->counters[QNODES]);
        return e->api->child_value(e->tree, move);
    }
    return searched_node(e, loop, move, depth, alpha, beta);
}

/* searched_child's node: the move made, the child searched with `loop`, its line kept. */
static long searched_node(Engine *e, int loop, Move move, int depth, long alpha, long beta) {
    if (e->refutations)
        follow_refutation(e, move);
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

/* Search.selective_child: a quiet move after the first at a prunable node pruned (late-move
 * pruning, futility) or searched shallower first (late-move reductions); the same move
 * again at once is a re-search, searched as asked. */
static long selective_child(Engine *e, int loop, Move move, int depth, long alpha, long beta) {
    PlyFacts *f = &e->facts[e->ply];
    if (move == f->last) {
        f[1].pv = f->pv && f->count == 1;
        return searched_child(e, loop, move, depth, alpha, beta);
    }
    int index = f->count++;
    f->last = move;
    f[1].pv = f->pv && index == 0;
    /* A tree without tactical() (internal iterative deepening alone) has no quiet move. */
    if (index == 0 || !f->prunable || e->api->tactical == NULL || e->api->tactical(e->tree, move))
        return searched_child(e, loop, move, depth, alpha, beta);
    const Selective *s = &e->rules;
    long long *c = e->counters;
    int remaining = f->remaining;
    if (remaining <= s->late_move_count_n && index >= s->late_move_counts[remaining - 1]) {
        c[LATE_MOVE_PRUNES]++;
        return beta;                         /* its parent's alpha: a fail-low */
    }
    if (remaining <= s->futility_n && f->static_value + s->futility[remaining - 1] <= -beta) {
        c[FUTILITY_PRUNES]++;
        return -(f->static_value + s->futility[remaining - 1]);
    }
    int r = s->lmr ? reduction(remaining, index) : 0;
    if (r) {
        c[REDUCTIONS]++;
        long value = searched_child(e, loop, move, depth - r, alpha, beta);
        if (e->failed || value >= beta)      /* fails low for its parent: the reduction stands */
            return value;
        c[REDUCTION_RESEARCHES]++;
    }
    return searched_child(e, loop, move, depth, alpha, beta);
}

/* Search.child: searched_child, through the selective rules when any is on. */
static inline long child(Engine *e, int loop, Move move, int depth, long alpha, long beta) {
    if (e->selective)
        return selective_child(e, loop, move, depth, alpha, beta);
    return searched_child(e, loop, move, depth, alpha, beta);
}

/* Search.null_child: the position after passing, searched with `loop` (a zero window:
 * its value is never exact, and a line below it is not ours). */
static long null_child(Engine *e, int loop, int depth, long alpha, long beta) {
    e->facts[e->ply + 1].pv = 0;
    e->refute[e->ply + 1] = NULL;
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
 * and the node's children in *ch (its first stage where the frame stages them). */
static inline int settled(Engine *e, Children *ch, long *alpha, long *beta, long *answer) {
    if (e->staged) {
        ch->n = e->api->first_moves(e->tree, ch->moves, &ch->complete);
    } else {
        ch->n = e->api->moves(e->tree, ch->moves);
        ch->complete = 1;
    }
    if (ch->n == 0) {
        e->counters[LEAVES]++;
        *answer = e->api->terminal_value(e->tree);
        return 1;
    }
    return e->value_bounds && bounded(e, alpha, beta, answer);
}

/* Search.expand: the loop over the children (hash move first), the node classified, stored. */
static long expand(Engine *e, int loop, Children *ch, int depth, long alpha, long beta,
                   Move hash_move, Key key) {
    Move *moves = ch->moves;
    ch->prefetch = 0;                        /* (not while the hash move is looked for) */
    if (hash_move != NO_MOVE && moves[0] != hash_move) {
        for (int k = 1; has_child(e, ch, k); k++)   /* (a quiet hash move: the rest made) */
            if (moves[k] == hash_move) {
                memmove(moves + 1, moves, k * sizeof(Move));
                moves[0] = hash_move;
                break;
            }
    }
    ch->prefetch = e->table.size && e->api->child_key != NULL && (depth > 1 || e->store_leaves);
    ch->ahead = -1;
    prefetch_child(e, ch, 0);
    int ply = e->ply;
    if (e->selective) {                      /* no move of this node searched yet */
        e->facts[ply].count = 0;
        e->facts[ply].last = NO_MOVE;
    }
    if (ply >= e->plies_used) {              /* first reached: its lines are zeroed now */
        memset(&e->lines[e->plies_used], 0, (ply + 1 - e->plies_used) * sizeof(Lines));
        e->plies_used = ply + 1;
    }
    lines_clear(&e->lines[ply]);
    long value = 0;
    int last = 0;
    Move best = NO_MOVE;
    run_loop(e, loop, ch, depth, alpha, beta, &value, &last, &best);
    if (e->failed)
        return 0;
    long long *c = e->counters;
    if (value >= beta) {
        c[FAIL_HIGHS]++;
        c[CUT_NODES]++;
        if (last == 0)
            c[FAIL_HIGHS_FIRST]++;
        if (child_after(e, ch, last))
            c[CUTOFFS]++;
        if (best != NO_MOVE && e->api->cutoff != NULL)
            e->api->cutoff(e->tree, best, depth);
    } else if (value <= alpha) {
        c[FAIL_LOWS]++;
        c[ALL_NODES]++;
    } else
        c[PV_NODES]++;
    /* An exact node keeps its line (the PV); with refutation tables every node does. */
    if (best != NO_MOVE && (e->refutations || (alpha < value && value < beta))) {
        PyObject *rest = lines_get(&e->lines[ply], best);
        e->line = Py_BuildValue("(LO)", (long long)best, rest != NULL ? rest : Py_None);
        if (e->line == NULL)
            return fail(e);
    }
    if (e->table.size)
        store(e, key, depth, alpha, beta, value, best);
    e->best_move = best;
    return value;
}

/* Search.selective_node: record a node's facts for its children, then razoring and reverse
 * futility at a prunable node; 1 and its value in *answer if one answers it. */
static int selective_node(Engine *e, int depth, long alpha, long beta, int in_check,
                          long *answer) {
    PlyFacts *f = &e->facts[e->ply];
    const Selective *s = &e->rules;
    int prunable = !f->pv && !in_check;
    f->prunable = (char)prunable;
    f->remaining = depth;
    if (!prunable || depth > s->static_depth)
        return 0;
    long static_value = e->api->value(e->tree);
    f->static_value = static_value;
    long long *c = e->counters;
    long mate = s->mate ? s->mate : INF;
    if (depth <= s->razoring_n && static_value + s->razoring[depth - 1] <= alpha
            && alpha > -mate + MATE_WINDOW) {
        c[RAZOR_SEARCHES]++;
        long value = horizon(e, alpha, alpha + 1);
        if (value <= alpha) {
            c[RAZOR_CUTOFFS]++;
            c[FAIL_LOWS]++;
            c[ALL_NODES]++;
            *answer = value;
            return 1;
        }
    }
    if (depth <= s->reverse_futility_n && static_value - s->reverse_futility[depth - 1] >= beta
            && beta < mate - MATE_WINDOW) {
        c[REVERSE_FUTILITY_CUTOFFS]++;
        c[FAIL_HIGHS]++;
        c[CUT_NODES]++;
        c[CUTOFFS]++;
        *answer = static_value - s->reverse_futility[depth - 1];
        return 1;
    }
    return 0;
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
    int in_check = e->checks && e->api->in_check(e->tree);
    if (in_check && e->extend_checks)
        depth++;
    if (depth <= 0 && !e->store_leaves) {
        c[LEAVES]++;
        return horizon(e, alpha, beta);
    }
    long mate = e->rules.mate;
    if (mate && depth > 0) {                 /* mate-distance pruning */
        int ply = e->ply;
        if (alpha < -(mate - ply))
            alpha = -(mate - ply);
        if (beta > mate - ply - 1)
            beta = mate - ply - 1;
        if (alpha >= beta) {
            c[MATE_DISTANCE_CUTOFFS]++;
            return alpha;
        }
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
    Children ch = {moves, 0, 1, 0, -1};
    long answer;
    if (settled(e, &ch, &alpha, &beta, &answer))
        return answer;
    if (e->selective && selective_node(e, depth, alpha, beta, in_check, &answer))
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
    if (e->refutations && hash_move == NO_MOVE)
        hash_move = refutation_move(e, moves, ch.n);   /* (not staged: ch is whole) */
    if (e->rules.iid && hash_move == NO_MOVE && depth >= IID_DEPTH) {
        c[IID_SEARCHES]++;                   /* its best move is searched first */
        expand(e, loop, &ch, depth - IID_REDUCTION, alpha, beta, NO_MOVE, key);
        if (e->failed)
            return 0;
        hash_move = e->best_move;
        Py_CLEAR(e->line);
    }
    return expand(e, loop, &ch, depth, alpha, beta, hash_move, key);
}

#endif
