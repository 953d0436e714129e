/* Move ordering and what the compiled chess tree learns (_board.c, the only file that
 * includes this, after ../board_cursor.h and board_draws.h): the switches of tree.Ordering
 * (read from the Python object the tree is given), ChessTree.moves's order (MVV-LVA as
 * movegen.mvv_lva, then killers and history as ChessTree._dynamic_order), ChessTree.cutoff's
 * learning, which reset() forgets, and ChessTree.null_allowed. */
#ifndef HARNESS_CHESS_BOARD_ORDER_H
#define HARNESS_CHESS_BOARD_ORDER_H

/* ordering.quiescence's options (quiescence.QuiescenceRules: see, delta, checks). */
static int read_quiescence(Game *g, PyObject *ordering) {
    PyObject *rules = PyObject_GetAttrString(ordering, "quiescence");
    if (rules == NULL)
        return 0;
    const char *names[3] = {"see", "delta", "checks"};
    int values[3];
    for (int i = 0; i < 3; i++) {
        PyObject *value = PyObject_GetAttrString(rules, names[i]);
        values[i] = value == NULL ? -1 : PyObject_IsTrue(value);
        Py_XDECREF(value);
        if (values[i] < 0) {
            Py_DECREF(rules);
            return 0;
        }
    }
    Py_DECREF(rules);
    g->qsee = values[0];
    g->qdelta = values[1];
    g->qchecks = values[2];
    return 1;
}

/* The switches of `ordering` (tree.Ordering) into g, which keeps a reference to it. */
static int read_ordering(Game *g, PyObject *ordering) {
    if (!read_quiescence(g, ordering))
        return 0;
    const char *names[3] = {"mvv_lva", "killers", "history"};
    int values[3];
    for (int i = 0; i < 3; i++) {
        PyObject *value = PyObject_GetAttrString(ordering, names[i]);
        if (value == NULL)
            return 0;
        values[i] = PyObject_IsTrue(value);
        Py_DECREF(value);
        if (values[i] < 0)
            return 0;
    }
    g->mvv_lva = values[0];
    g->killers_on = values[1];
    g->history_on = values[2];
    Py_INCREF(ordering);
    Py_XSETREF(g->ordering, ordering);
    return 1;
}

/* What cutoff() has learnt, forgotten (ChessTree.reset). */
static void clear_dynamic(Game *g) {
    g->killer_plies = 0;
    memset(g->history, 0, sizeof g->history);
}

static inline int contains(const int *codes, int count, int code) {
    for (int i = 0; i < count; i++)
        if (codes[i] == code)
            return 1;
    return 0;
}

/* Sort moves[0:n] by history, most first, stably (as Python's sorted with key=-history):
 * the moves with a score sorted as one packed key each (the score, then the move's place
 * reversed, so that ties keep their order), the rest after them in their order. Most
 * quiet moves have none, and the insertion sort moves one word a step. */
static void order_by_history(const Game *g, Move *moves, int n) {
    unsigned long long keys[MAX_MOVES];
    int unscored[MAX_MOVES], scored = 0, rest = 0;
    for (int i = 0; i < n; i++) {
        long long score = g->history[FROM(moves[i])][TO(moves[i])];
        if (score <= 0) {
            unscored[rest++] = (int)moves[i];
            continue;
        }
        unsigned long long key = (unsigned long long)score << 8 | (unsigned)(255 - i);
        int j = scored++;
        while (j > 0 && keys[j - 1] < key) {
            keys[j] = keys[j - 1];
            j--;
        }
        keys[j] = key;
    }
    Move original[MAX_MOVES];
    memcpy(original, moves, n * sizeof(Move));
    for (int k = 0; k < scored; k++)
        moves[k] = original[255 - (int)(keys[k] & 255)];
    for (int k = 0; k < rest; k++)
        moves[scored + k] = unscored[k];
}

/* Whether moves[0:count] holds `code`. */
static inline int holds(const Move *moves, int count, int code) {
    for (int i = 0; i < count; i++)
        if (moves[i] == code)
            return 1;
    return 0;
}

/* _dynamic_order's killers: those of this ply among the quiet moves rest[0:count] put
 * first, in the killers' order. */
static void order_by_killers(const Tree *t, Move *rest, int rest_count) {
    const Game *g = &t->game;
    if (t->ply >= g->killer_plies)
        return;
    int found[2], count = 0;
    for (int k = 0; k < g->killer_count[t->ply]; k++)
        if (holds(rest, rest_count, g->killers[t->ply][k]))
            found[count++] = g->killers[t->ply][k];
    if (count) {
        Move reordered[MAX_MOVES];
        int m = 0;
        for (int k = 0; k < count; k++)
            reordered[m++] = found[k];
        for (int i = 0; i < rest_count; i++)
            if (!contains(found, count, (int)rest[i]))
                reordered[m++] = rest[i];
        memcpy(rest, reordered, rest_count * sizeof(Move));
    }
}

/* ChessTree.moves into order[] (the frame's Moves, written once): the static order
 * (MVV-LVA split or generation order), then _dynamic_order with killers or history; the
 * count. */
static int ordered_moves(Tree *t, Move *order) {
    const Pos *p = board_here(t);
    const Game *g = &t->game;
    int tactical = 0, n = 0, king = king_square(p, p->turn);
    if (king >= 0 && !attackers(p, !p->turn, king, occupancy(p))) {
        Lists lists;                                  /* (most nodes: one pass) */
        node_lists(p, king, g->mvv_lva, &lists);
        tactical = lists.tactical_count;
        for (int i = 0; i < tactical; i++)
            order[n++] = lists.tactical[i];
        for (int i = 0; i < lists.quiet_count; i++)
            order[n++] = lists.quiet[i];
    } else {
        MoveList legal;
        legal_moves(p, &legal);
        if (g->mvv_lva) {
            int sorted[MAX_MOVES], quiet[MAX_MOVES], quiet_count;
            tactical = split_tactical(p, legal.codes, legal.count, sorted, quiet, &quiet_count);
            for (int i = 0; i < tactical; i++)
                order[n++] = sorted[i];
            for (int i = 0; i < quiet_count; i++)
                order[n++] = quiet[i];
        } else {
            for (int i = 0; i < legal.count; i++)
                order[n++] = legal.codes[i];
        }
    }
    if ((g->killers_on || g->history_on) && n > 1) {
        Move *rest = order + tactical;
        int rest_count = n - tactical;
        if (g->history_on)
            order_by_history(g, rest, rest_count);
        if (g->killers_on)
            order_by_killers(t, rest, rest_count);
    }
    return n;
}

/* The first stage (board_first_moves, the native first_moves): a node not in check, with
 * MVV-LVA on and history off, gives its captures and promotions in ordered_moves's order
 * (they come first there, and killers and history move only the quiet ones), the quiet
 * ones left for board_rest_moves; any other node (or one without a capture) its whole
 * list. History is left whole: the children's cutoffs change it before the quiet moves
 * would be sorted (killers are learnt at the node's own ply, which its children never
 * reach). */
static int board_first_moves(Tree *t, Move *out, int *complete) {
    const Pos *p = board_here(t);
    const Game *g = &t->game;
    *complete = 1;
    if (draw_here(t))
        return 0;
    int king = king_square(p, p->turn);
    u64 blockers;
    if (!g->mvv_lva || g->history_on || king < 0 || checked_else_blockers(p, king, &blockers))
        return ordered_moves(t, out);
    int sorted[MAX_MOVES];
    int n = tactical_lists(p, king, blockers, sorted);
    if (n == 0)
        return board_rest_moves(t, out);
    for (int i = 0; i < n; i++)
        out[i] = sorted[i];
    *complete = 0;
    return n;
}

/* The second stage: the quiet moves of a node board_first_moves left incomplete, in
 * ordered_moves's order (killers first). */
static int board_rest_moves(Tree *t, Move *out) {
    const Pos *p = board_here(t);
    int n = quiet_lists(p, king_square(p, p->turn), out);
    if (t->game.killers_on)
        order_by_killers(t, out, n);
    return n;
}

static int board_has_rest(Tree *t) {
    const Pos *p = board_here(t);
    return has_quiet(p, king_square(p, p->turn));
}

/* ChessTree.cutoff's learning, for a move (-1: the null move) at `depth`: killers and
 * history learn from quiet moves only. The native cutoff (BOARD_CUTOFF). */
static void learn_cutoff(Tree *t, Move move, long depth) {
    Game *g = &t->game;
    int code = (int)move;
    if ((!g->killers_on && !g->history_on) || code < 0 || is_tactical(board_here(t), code))
        return;
    if (g->killers_on) {
        int ply = t->ply;
        while (g->killer_plies <= ply)
            g->killer_count[g->killer_plies++] = 0;
        int *slot = g->killers[ply];
        if (!contains(slot, g->killer_count[ply], code)) {
            slot[1] = slot[0];
            slot[0] = code;
            if (g->killer_count[ply] < 2)
                g->killer_count[ply]++;
        }
    }
    if (g->history_on)
        g->history[FROM(code)][TO(code)] += (long long)depth * depth;
}

/* reset(): back at the root (the cursor's part), the killers, the history and the count of
 * draws forgotten (BOARD_RESET). */
static void forget(Tree *t) {
    t->game.repetition_draws = 0;
    clear_dynamic(&t->game);
}

/* moves[0:n] as a list of ints. */
static PyObject *code_list(const Move *moves, int n) {
    PyObject *list = PyList_New(n);
    for (int i = 0; list != NULL && i < n; i++) {
        PyObject *code = PyLong_FromLongLong(moves[i]);
        if (code == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, code);
    }
    return list;
}

/* staged_moves(): (first, rest, has_rest), the native stages as the compiled frame sees
 * them (rest empty when first is the whole list), for the tests: first + rest is moves(). */
static PyObject *Tree_staged_moves(Tree *t, PyObject *unused) {
    Move moves[NATIVE_MAX_MOVES];
    int complete, n = board_first_moves(t, moves, &complete), rest = 0, more = 0;
    if (!complete) {
        more = board_has_rest(t);
        rest = board_rest_moves(t, moves + n);
    }
    PyObject *first = code_list(moves, n), *after = code_list(moves + n, rest);
    if (first == NULL || after == NULL) {
        Py_XDECREF(first);
        Py_XDECREF(after);
        return NULL;
    }
    return Py_BuildValue("(NNO)", first, after, more ? Py_True : Py_False);
}

/* ChessTree.cutoff. */
static PyObject *Tree_cutoff(Tree *t, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "cutoff(move, depth)");
        return NULL;
    }
    if (!t->game.killers_on && !t->game.history_on)
        Py_RETURN_NONE;
    int code;
    if (!read_code(args[0], &code))
        return NULL;
    long depth = PyLong_AsLong(args[1]);
    if (depth == -1 && PyErr_Occurred())
        return NULL;
    learn_cutoff(t, code, depth);
    Py_RETURN_NONE;
}

static PyObject *Tree_set_ordering(Tree *t, PyObject *ordering) {
    int was = t->game.mvv_lva;
    if (!read_ordering(&t->game, ordering))
        return NULL;
    if (t->game.mvv_lva != was) {            /* as ChessTree: the MVV-LVA switch resets */
        t->ply = 0;
        clear_dynamic(&t->game);
    }
    Py_RETURN_NONE;
}

/* ChessTree.null_allowed: never in check; `either`: neither of the last two plies was a
 * null move; otherwise (`both`): not both of them (BOARD_NULL_ALLOWED). */
static int null_allowed(Tree *t, int either) {
    if (in_check(board_here(t)))
        return 0;
    const int *path = t->game.path;
    int last = t->ply >= 1 && path[t->ply - 1] < 0;
    int before = t->ply >= 2 && path[t->ply - 2] < 0;
    return either ? !(last || before) : !(t->ply >= 2 && last && before);
}

#endif
