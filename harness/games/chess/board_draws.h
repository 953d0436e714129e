/* Draws by repetition and the fifty-move rule for the compiled chess tree (_board.c, the
 * only file that includes this, after ../board_cursor.h: it reads the cursor's Tree):
 * ChessTree.drawn and ChessTree.draws. With draws on, each node of the path keeps its
 * half-move clock (set as it is stepped into) and its key (made when a repetition test
 * first needs it: keyed), the game before the root its keys (position_key tuples, handed
 * to the constructor), and the tree counts the nodes it scores as such draws. */
#ifndef HARNESS_CHESS_BOARD_DRAWS_H
#define HARNESS_CHESS_BOARD_DRAWS_H

#define FIFTY_MOVES 100           /* tree.FIFTY_MOVES: the half-move clock of the fifty-move rule */

/* The keys of the game before the root (position_key tuples, oldest first) into g. */
static int read_game_keys(Game *g, PyObject *history) {
    PyObject *items = PySequence_Fast(history, "history must be a sequence of position_key tuples");
    if (items == NULL)
        return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    g->game_keys = PyMem_Calloc(n ? (size_t)n : 1, sizeof(KeyObject));
    if (g->game_keys == NULL) {
        Py_DECREF(items);
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        KeyObject *k = &g->game_keys[i];
        unsigned long long bb[8], castling;
        int turn;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(items, i), "KKKKKKKKpKi;a history key is "
                              "position_key's tuple", &bb[0], &bb[1], &bb[2], &bb[3], &bb[4],
                              &bb[5], &bb[6], &bb[7], &turn, &castling, &k->ep)) {
            Py_DECREF(items);
            return 0;
        }
        for (int j = 0; j < 8; j++)
            k->bb[j] = bb[j];
        k->turn = turn;
        k->castling = castling;
    }
    g->game_key_count = n;
    Py_DECREF(items);
    return 1;
}

/* With draws on: the half-move clock of the node just stepped into by `code` (play.py's
 * clock: 0 after a capture or a pawn move, else one more, a pass included); its key is
 * made when a repetition test needs it (most nodes' clocks rule one out). */
static inline void note_step(Tree *t, int code) {
    const Pos *from = &t->stack[t->ply - 1];
    int zeroing = code >= 0 && (piece_type_at(from, FROM(code)) == PAWN
                                || piece_type_at(from, TO(code)) != NONE);
    t->game.clock[t->ply] = zeroing ? 0 : t->game.clock[t->ply - 1] + 1;
    t->game.keyed[t->ply] = 0;
}

/* The key of the node `ply` plies from the root on the path, made on first use. */
static inline const KeyObject *path_key(Tree *t, int ply) {
    if (!t->game.keyed[ply]) {
        fill_key(&t->stack[ply], &t->game.keys[ply]);
        t->game.keyed[ply] = 1;
    }
    return &t->game.keys[ply];
}

static inline int same_position(const KeyObject *a, const KeyObject *b) {
    return a->turn == b->turn && a->ep == b->ep && a->castling == b->castling
        && memcmp(a->bb, b->bb, sizeof a->bb) == 0;
}

/* ChessTree.drawn, for a node below the root with draws on: the fifty-move rule (not at
 * checkmate), or a position met 4, 6, ... plies back on the path or in the game, no further
 * back than the half-move clock nor past the last null move. */
static int drawn(Tree *t) {
    const Game *g = &t->game;
    int ply = t->ply, reach = g->clock[ply];
    if (reach >= FIFTY_MOVES) {
        if (!in_check(board_here(t)))
            return 1;
        MoveList legal;
        legal_moves(board_here(t), &legal);
        return legal.count > 0;
    }
    for (int back = 1; back <= reach && back <= ply; back++)
        if (g->path[ply - back] < 0) {            /* the move into ply - back + 1 was a pass */
            reach = back - 1;
            break;
        }
    if (reach < 4)
        return 0;
    const KeyObject *now = path_key(t, ply);
    for (int back = 4; back <= reach; back += 2) {
        int index = ply - back;
        const KeyObject *then;
        if (index >= 0)
            then = path_key(t, index);
        else if (-index <= g->game_key_count)
            then = &g->game_keys[g->game_key_count + index];
        else
            break;
        if (same_position(then, now))
            return 1;
    }
    return 0;
}

/* Whether the node is a draw the tree scores (draws on, below the root, drawn). */
static inline int draw_here(Tree *t) { return t->game.draws && t->ply > 0 && drawn(t); }

/* draw_here, counted: what the value methods ask before anything else. */
static inline int counted_draw(Tree *t) {
    if (!draw_here(t))
        return 0;
    t->game.repetition_draws++;
    return 1;
}

#endif
