/* Position keys for the compiled chess tree (_board.c, the only file that includes this):
 * the fields of tree.position_key's tuple, hashed as CPython hashes that tuple. */
#ifndef HARNESS_CHESS_BOARD_KEY_H
#define HARNESS_CHESS_BOARD_KEY_H

/* ---- keys ------------------------------------------------------------------------------ */

/* CPython's hash of a tuple (Objects/tupleobject.c, 3.8 and later) of ints. */
#define XXPRIME_1 11400714785074694791ULL
#define XXPRIME_2 14029467366897019727ULL
#define XXPRIME_5 2870177450012600261ULL
#define XXROTATE(x) ((x << 31) | (x >> 33))
#define HASH_MODULUS ((1ULL << 61) - 1)

static inline u64 hash_unsigned(u64 x) {         /* hash(x) of an int 0 <= x < 2**64 */
    u64 h = (x & HASH_MODULUS) + (x >> 61);
    if (h >= HASH_MODULUS)
        h -= HASH_MODULUS;
    return h;
}

static inline u64 hash_small(long x) {           /* hash(x) of a small int */
    return x == -1 ? (u64)-2 : (u64)x;
}

typedef struct {
    PyObject_HEAD
    u64 bb[8];             /* pawns, knights, bishops, rooks, queens, kings, white, black */
    u64 castling;
    int turn, ep;          /* ep: -1 when no en passant capture is legal */
    Py_hash_t hash;
} KeyObject;

static PyTypeObject KeyType;

static PyObject *Key_fields(KeyObject *k, PyObject *unused) {
    return Py_BuildValue("(KKKKKKKKOKi)", k->bb[0], k->bb[1], k->bb[2], k->bb[3], k->bb[4],
                         k->bb[5], k->bb[6], k->bb[7], k->turn ? Py_True : Py_False, k->castling,
                         k->ep);
}

/* One round of CPython's tuple hash (xxHash's): a field's hash into the accumulator. */
static inline u64 tuple_round(u64 acc, u64 lane) {
    acc += lane * XXPRIME_2;
    return XXROTATE(acc) * XXPRIME_1;
}
#define TUPLE_ROUND(acc, lane) ((acc) = tuple_round((acc), (lane)))

/* The key's en passant field: p's square if an en passant capture is legal, else -1 (the
 * legality test only when there is a square: most positions have none). */
static inline int key_ep(const Pos *p) {
    return p->ep > 0 && has_legal_en_passant(p) ? p->ep : -1;
}

/* hash(position_key(p)), its en passant field `ep`: CPython's hash of the tuple (8
 * bitboards, turn, castling, ep), unrolled and read from p (no copy of the fields). */
static inline u64 position_hash(const Pos *p, int ep) {
    u64 acc = XXPRIME_5;
    TUPLE_ROUND(acc, hash_unsigned(p->bb[PAWN]));
    TUPLE_ROUND(acc, hash_unsigned(p->bb[KNIGHT]));
    TUPLE_ROUND(acc, hash_unsigned(p->bb[BISHOP]));
    TUPLE_ROUND(acc, hash_unsigned(p->bb[ROOK]));
    TUPLE_ROUND(acc, hash_unsigned(p->bb[QUEEN]));
    TUPLE_ROUND(acc, hash_unsigned(p->bb[KING]));
    TUPLE_ROUND(acc, hash_unsigned(p->side[1]));
    TUPLE_ROUND(acc, hash_unsigned(p->side[0]));
    TUPLE_ROUND(acc, (u64)p->turn);                 /* hash(True) is 1, hash(False) 0 */
    TUPLE_ROUND(acc, hash_unsigned(p->castling));
    TUPLE_ROUND(acc, hash_small(ep));
    acc += 11 ^ (XXPRIME_5 ^ 3527539UL);
    return acc == (u64)-1 ? 1546275796 : acc;
}

/* The fields of p's key and their hash, into k. */
static void fill_key(const Pos *p, KeyObject *k) {
    for (int i = 0; i < 6; i++)
        k->bb[i] = p->bb[i + 1];
    k->bb[6] = p->side[1];
    k->bb[7] = p->side[0];
    k->turn = p->turn;
    k->castling = p->castling;
    k->ep = key_ep(p);
    k->hash = (Py_hash_t)position_hash(p, k->ep);
}

static PyObject *make_key(const Pos *p) {
    KeyObject *k = PyObject_New(KeyObject, &KeyType);
    if (k == NULL)
        return NULL;
    fill_key(p, k);
    return (PyObject *)k;
}

/* hash(position_key(p)): the table's slot in both frames. */
static u64 key_hash(const Pos *p) {
    return position_hash(p, key_ep(p));
}

static inline u64 mix64(u64 x) {                  /* splitmix64's finaliser */
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* A 64-bit digest of every field of p's key (en passant field `ep`), for the compiled
 * frame's table to compare: hash(key) will not do, as CPython hashes an int modulo
 * 2^61 - 1, so a piece on a1 (bit 0) and one on f8 (bit 61) of the same bitboard hash
 * alike. Each field goes in whole (turn and ep as one) through xxHash's round (tuple_round:
 * an addition, a rotation and multiplications by odd numbers, each a bijection of the
 * field and of the accumulator), from a seed of its own, and the result through
 * splitmix64's finaliser (a bijection that takes every bit to every bit): two keys that
 * differ in one field never share a digest, and any others mix as xxHash's rounds do. The
 * rounds are half the instructions of a finaliser a field. */
#define DIGEST_SEED 0x9E3779B97F4A7C15ULL
static inline u64 position_digest(const Pos *p, int ep) {
    u64 acc = DIGEST_SEED;
    for (int i = 1; i <= 6; i++)
        acc = tuple_round(acc, p->bb[i]);
    acc = tuple_round(acc, p->side[1]);
    acc = tuple_round(acc, p->side[0]);
    acc = tuple_round(acc, p->castling);
    acc = tuple_round(acc, (u64)(ep + 2) << 1 | (u64)p->turn);
    return mix64(acc);
}

static u64 key_digest(const Pos *p) {
    return position_digest(p, key_ep(p));
}

/* key_digest(p), and key_hash(p) into *hash, from one en passant test. */
static u64 key_digest_and_hash(const Pos *p, u64 *hash) {
    int ep = key_ep(p);
    *hash = position_hash(p, ep);
    return position_digest(p, ep);
}

static Py_hash_t Key_hash(KeyObject *k) { return k->hash; }

static PyObject *Key_richcompare(PyObject *a, PyObject *b, int op) {
    if (op != Py_EQ && op != Py_NE)
        Py_RETURN_NOTIMPLEMENTED;
    if (!PyObject_TypeCheck(b, &KeyType) || !PyObject_TypeCheck(a, &KeyType)) {
        if (!PyTuple_Check(b))
            Py_RETURN_NOTIMPLEMENTED;
        PyObject *fields = Key_fields((KeyObject *)a, NULL);   /* a Key against a tuple */
        if (fields == NULL)
            return NULL;
        PyObject *result = PyObject_RichCompare(fields, b, op);
        Py_DECREF(fields);
        return result;
    }
    KeyObject *x = (KeyObject *)a, *y = (KeyObject *)b;
    int equal = x->hash == y->hash && x->turn == y->turn && x->ep == y->ep
                && x->castling == y->castling && memcmp(x->bb, y->bb, sizeof x->bb) == 0;
    if (equal == (op == Py_EQ))
        Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

static PyObject *Key_repr(KeyObject *k) {
    PyObject *fields = Key_fields(k, NULL);
    if (fields == NULL)
        return NULL;
    PyObject *repr = PyUnicode_FromFormat("Key%R", fields);
    Py_DECREF(fields);
    return repr;
}

static PyMethodDef Key_methods[] = {
    {"fields", (PyCFunction)Key_fields, METH_NOARGS,
     "The tuple tree.position_key gives: 8 bitboards, turn, castling, en passant (-1: none)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KeyType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "harness.games.chess._board.Key",
    .tp_doc = PyDoc_STR("A position's key: equal to, and hashed as, tree.position_key's tuple."),
    .tp_basicsize = sizeof(KeyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_hash = (hashfunc)Key_hash,
    .tp_richcompare = Key_richcompare,
    .tp_repr = (reprfunc)Key_repr,
    .tp_methods = Key_methods,
};

#endif
