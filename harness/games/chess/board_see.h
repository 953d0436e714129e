/* Static exchange evaluation and the quiescence options' move lists for the compiled chess
 * tree (_board.c, the only file that includes this, after board_moves.h): the twins of
 * see.py's see and quiescence.py's capture_plan and quiet_checks, tested against them
 * (tests/test_chess_quiescence.py). */
#ifndef HARNESS_CHESS_BOARD_SEE_H
#define HARNESS_CHESS_BOARD_SEE_H

#define SEE_KING 20000          /* see.SEE_KING: the king's value in an exchange */
#define SEE_DEPTH 40            /* gains of one exchange: at most the 32 pieces, and the move */

static inline long see_value(int type) { return type == KING ? SEE_KING : piece_values[type]; }

/* see.see: what the legal move `code` wins on its target square when both sides recapture
 * there, least valuable attacker first (the lowest square of its kind), sliders behind a
 * piece that left joining, each side stopping when taking is worse; pins, checks and
 * promotions by recapture ignored. */
static long see(const Pos *p, int code) {
    int from = FROM(code), to = TO(code), promotion = PROMOTION(code);
    int mover = p->piece[from], victim = p->piece[to];
    u64 occupied = occupancy(p) & ~BIT(from);
    if (victim == NONE && mover == PAWN && ((from ^ to) & 7)) {        /* en passant */
        victim = PAWN;
        occupied &= ~BIT(p->turn ? to - 8 : to + 8);
    }
    long gains[SEE_DEPTH];
    long at_risk = see_value(mover);
    int d = 0;
    gains[0] = see_value(victim);
    if (promotion) {
        gains[0] += see_value(promotion) - see_value(PAWN);
        at_risk = see_value(promotion);
    }
    for (int side = !p->turn; d + 1 < SEE_DEPTH; side = !side) {
        u64 found = attackers(p, side, to, occupied) & occupied;
        if (!found)
            break;
        int type = PAWN;
        while (!(found & p->bb[type]))              /* the least valuable attacker */
            type++;
        found &= p->bb[type];
        d++;
        gains[d] = at_risk - gains[d - 1];
        at_risk = see_value(type);
        occupied &= ~(found & -found);
    }
    for (; d > 0; d--)                              /* each side stops when taking is worse */
        gains[d - 1] = -(-gains[d - 1] > gains[d] ? -gains[d - 1] : gains[d]);
    return gains[0];
}

/* The value of the piece a capture takes (a pawn for en passant), for delta pruning:
 * quiescence.capture_plan's. */
static inline long victim_value(const Pos *p, int code) {
    int victim = p->piece[TO(code)];
    return piece_values[victim == NONE ? PAWN : victim];
}

/* The legal moves that neither capture nor promote, in generation order, into out[]
 * (ChessTree._quiet_moves); their count. */
static int quiet_moves(const Pos *p, int *out) {
    MoveList legal;
    legal_moves(p, &legal);
    int n = 0;
    for (int i = 0; i < legal.count; i++)
        if (!is_tactical(p, legal.codes[i]))
            out[n++] = legal.codes[i];
    return n;
}

/* quiescence.quiet_checks: the quiet moves that give check, in generation order, those
 * with a negative SEE left out if `see_on`, into out[]; their count. */
static int quiet_checking_moves(const Pos *p, int see_on, int *out) {
    int quiet[MAX_MOVES], n = 0, count = quiet_moves(p, quiet);
    for (int i = 0; i < count; i++) {
        Pos next;
        make(p, &next, quiet[i]);
        int king = king_square(&next, next.turn);
        if (king < 0 || !attackers(&next, p->turn, king, occupancy(&next)))
            continue;
        if (see_on && see(p, quiet[i]) < 0)
            continue;
        out[n++] = quiet[i];
    }
    return n;
}

#endif
