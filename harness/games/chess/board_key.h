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

/* The fields of p's key and their hash, into k (a Key object's, or a plain struct's for
 * the compiled frame, which needs the hash alone). */
static void fill_key(const Pos *p, KeyObject *k) {
    for (int i = 0; i < 6; i++)
        k->bb[i] = p->bb[i + 1];
    k->bb[6] = p->side[1];
    k->bb[7] = p->side[0];
    k->turn = p->turn;
    k->castling = p->castling;
    k->ep = has_legal_en_passant(p) ? p->ep : -1;
    u64 acc = XXPRIME_5;
    u64 lanes[11];
    for (int i = 0; i < 8; i++)
        lanes[i] = hash_unsigned(k->bb[i]);
    lanes[8] = (u64)k->turn;
    lanes[9] = hash_unsigned(k->castling);
    lanes[10] = hash_small(k->ep);
    for (int i = 0; i < 11; i++) {
        acc += lanes[i] * XXPRIME_2;
        acc = XXROTATE(acc);
        acc *= XXPRIME_1;
    }
    acc += 11 ^ (XXPRIME_5 ^ 3527539UL);
    if (acc == (u64)-1)
        acc = 1546275796;
    k->hash = (Py_hash_t)acc;
}

static PyObject *make_key(const Pos *p) {
    KeyObject *k = PyObject_New(KeyObject, &KeyType);
    if (k == NULL)
        return NULL;
    fill_key(p, k);
    return (PyObject *)k;
}

static inline u64 mix64(u64 x) {                  /* splitmix64's finaliser */
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* A 64-bit digest of every field of the key, for the compiled frame's table to compare:
 * hash(key) will not do, as CPython hashes an int modulo 2^61 - 1, so a piece on a1
 * (bit 0) and one on f8 (bit 61) of the same bitboard hash alike. */
static u64 digest_of(const KeyObject *k) {
    u64 digest = mix64((u64)k->turn + 1);
    for (int i = 0; i < 8; i++)
        digest = mix64(digest ^ k->bb[i]);
    digest = mix64(digest ^ k->castling);
    return mix64(digest ^ (u64)(k->ep + 2));
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
