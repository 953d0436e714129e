/* Slider attacks for the compiled chess tree (_board.c through board_position.h): "fancy"
 * magic bitboards. A rook's (bishop's) attacks from a square depend only on the occupied
 * squares of its relevant mask (its lines without the last square of each); multiplied by
 * the square's magic number, those squares land in the top bits of the product, which
 * index the square's slice of one shared table filled at import. Portable C: one
 * multiplication and a shift, no PEXT (the machines this runs on differ).
 *
 * The magic numbers are data: found once, offline, by the usual random search (sparse
 * random numbers, kept when no two occupancies with different attacks share an index);
 * make_magic() checks each one as it fills the table and fails the import if one collides.
 * They replace a walk along four rays (the lowest or highest blocker on each), which cost
 * about four times the instructions a slider. */
#ifndef HARNESS_CHESS_BOARD_MAGIC_H
#define HARNESS_CHESS_BOARD_MAGIC_H

#include "board_geometry.h"

#define FILE_A 0x0101010101010101ULL
#define FILE_H 0x8080808080808080ULL

typedef struct {
    u64 mask;              /* the relevant squares: the lines, less each one's edge square */
    u64 magic;
    const u64 *attacks;    /* this square's slice of the shared table */
    int shift;             /* 64 - the number of squares in the mask */
} Magic;

static const u64 ROOK_MAGICS[64] = {
    0x1080004008801020ULL, 0x0840092002C03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000A001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021D00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000A0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0442000A00049020ULL, 0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040A00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xC100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000A0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040A00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04C1002414824001ULL, 0x020020000B001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084C0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
};

static const u64 BISHOP_MAGICS[64] = {
    0xA010041108003100ULL, 0x006082020A002900ULL, 0x6810010619200000ULL, 0x08281A0520000408ULL,
    0x0001104001000400ULL, 0x0018901008048400ULL, 0x00040A0210245280ULL, 0x000200210808A402ULL,
    0x9140048410821200ULL, 0x0800091010820041ULL, 0x20504804832202C0ULL, 0x0100091401081000ULL,
    0x8021011140000012ULL, 0x0810020804450400ULL, 0x208B0542109008A2ULL, 0x0080084A08040204ULL,
    0x0040E2A80811244CULL, 0x2505022008008108ULL, 0x0430220100420040ULL, 0x010A040420220040ULL,
    0x1105000290400000ULL, 0x0093001200822120ULL, 0x4000A62048043004ULL, 0x280120048A015004ULL,
    0x006090002A020814ULL, 0x44042000240800D0ULL, 0x01102800040A4400ULL, 0x1004080080220040ULL,
    0x0001001011004024ULL, 0x0010044000805040ULL, 0x0914041200820100ULL, 0x0004821012821480ULL,
    0x0024040500C05021ULL, 0x0088611002080200ULL, 0x0116080A00040020ULL, 0x4000020080080080ULL,
    0x2450450140840040ULL, 0x0000880201484100ULL, 0x0222020404020092ULL, 0x8081110600002E00ULL,
    0x2842101105000801ULL, 0x1100809008001025ULL, 0x00020202221C0400ULL, 0x0422014022009020ULL,
    0x0210046102100C00ULL, 0xC004008082029102ULL, 0x00AA461801101200ULL, 0x0404080080201108ULL,
    0x020542108C205002ULL, 0x0410544804100100ULL, 0x0040910841100000ULL, 0x0400200042021100ULL,
    0x00004204850400C0ULL, 0x0200100410A42102ULL, 0x1040020801210102ULL, 0x0805040410420000ULL,
    0x2884804130100200ULL, 0x800C262201242000ULL, 0x1058000194108800ULL, 0x0014221054420204ULL,
    0x0104000012A02200ULL, 0x0200881003300100ULL, 0x0140400202840100ULL, 0x0402020801010201ULL,
};

#define ROOK_TABLE 102400      /* the sum over the squares of 2^(squares in the mask) */
#define BISHOP_TABLE 5248

static Magic rook_magic[64], bishop_magic[64];
static u64 rook_table[ROOK_TABLE], bishop_table[BISHOP_TABLE];
/* The attacks from each square on an empty board: 1 KB that stays cached, where a look into
 * the 800 KB rook table often misses; a slider off these lines cannot attack the square. */
static u64 rook_rays[64], bishop_rays[64];

static inline u64 magic_attacks(const Magic *m, u64 occupied) {
    return m->attacks[((occupied & m->mask) * m->magic) >> m->shift];
}

static inline u64 rook_attacks(int square, u64 occupied) {
    return magic_attacks(&rook_magic[square], occupied);
}

static inline u64 bishop_attacks(int square, u64 occupied) {
    return magic_attacks(&bishop_magic[square], occupied);
}

/* The attacks from `square` along `steps` (file, rank), each line up to and including its
 * first occupied square: the reference the table is filled from. */
static u64 walk_lines(int square, u64 occupied, const int (*steps)[2]) {
    u64 attacks = 0;
    for (int d = 0; d < 4; d++)
        for (int f = (square & 7) + steps[d][0], r = (square >> 3) + steps[d][1];
             f >= 0 && f < 8 && r >= 0 && r < 8; f += steps[d][0], r += steps[d][1]) {
            attacks |= BIT(r * 8 + f);
            if (occupied & BIT(r * 8 + f))
                break;
        }
    return attacks;
}

/* One slider's magics into `magics` and `table` (of `size` words): 0 if a magic number
 * collides (two occupancies with different attacks on one index) or the table is short. */
static int fill_magics(Magic *magics, u64 *table, int size, const u64 *numbers,
                       const int (*steps)[2], u64 *rays) {
    int used = 0;
    for (int square = 0; square < 64; square++) {
        u64 edges = ((RANK_1 | RANK_8) & ~(RANK_1 << (8 * (square >> 3))))
                    | ((FILE_A | FILE_H) & ~(FILE_A << (square & 7)));
        Magic *m = &magics[square];
        rays[square] = walk_lines(square, 0, steps);
        m->mask = rays[square] & ~edges;
        m->magic = numbers[square];
        m->shift = 64 - __builtin_popcountll(m->mask);
        int count = 1 << (64 - m->shift);
        if (used + count > size)
            return 0;
        u64 *slice = table + used;
        m->attacks = slice;
        for (int i = 0; i < count; i++)
            slice[i] = 0;
        u64 subset = 0;
        do {                                   /* every subset of the mask (Carry-Rippler) */
            u64 attacks = walk_lines(square, subset, steps);
            u64 *entry = &slice[((subset * m->magic) >> m->shift)];
            if (*entry != 0 && *entry != attacks)
                return 0;
            *entry = attacks;
            subset = (subset - m->mask) & m->mask;
        } while (subset);
        used += count;
    }
    return used == size;
}

/* The rook and bishop tables (at import): 0 if a magic number does not hold. */
static int make_magic(void) {
    static const int rook_steps[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
    static const int bishop_steps[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    return fill_magics(rook_magic, rook_table, ROOK_TABLE, ROOK_MAGICS, rook_steps, rook_rays)
           && fill_magics(bishop_magic, bishop_table, BISHOP_TABLE, BISHOP_MAGICS, bishop_steps,
                          bishop_rays);
}

#endif
