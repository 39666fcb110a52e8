/* engine.king.ai._kernel: the Python face of Кинг's playout kernel (see king.h and engine/king/ai/kernel.py).
 *
 * A state crosses the boundary as a flat tuple of ints, built and read by engine/king/ai/kernel.py:
 *   (hand0, hand1, hand2, hand3, leader, trick_no, contract, trump, forced_on_heart_lead,
 *    stop_when_decided, remaining, points0, points1, points2, points3, over, (trick cards...))
 */
#include "pytuple.h"

#include "king.h"

static int king_read(PyObject *t, KingState *s) {
    if (!check_tuple(t, 17, "king state")) return 0;
    long v[16];
    for (int i = 0; i < 4; i++)
        if (!read_mask(t, i, &s->hand[i])) return 0;
    for (int i = 4; i < 16; i++)
        if (!read_long(t, i, &v[i])) return 0;
    s->leader = (int)v[4];
    s->trick_no = (int)v[5];
    s->contract = (int)v[6];
    s->trump = (int)v[7];
    s->forced_on_heart_lead = (int)v[8];
    s->stop_when_decided = (int)v[9];
    s->remaining = (int)v[10];
    for (int p = 0; p < 4; p++) s->points[p] = (int)v[11 + p];
    s->over = (int)v[15];
    Py_ssize_t len;
    if (!read_ints(PyTuple_GET_ITEM(t, 16), s->trick, 3, &len)) return 0;
    s->trick_len = (int)len;
    s->current = (s->leader + s->trick_len) & 3;
    if (s->contract < -1 || s->contract > 6 || s->trump < -1 || s->trump > 3 || s->leader < 0 || s->leader > 3) {
        PyErr_SetString(PyExc_ValueError, "king state: a value out of range");
        return 0;
    }
    return 1;
}

static PyObject *king_write(const KingState *s) {
    PyObject *trick = PyTuple_New(s->trick_len);
    if (trick == NULL) return NULL;
    for (int i = 0; i < s->trick_len; i++) PyTuple_SET_ITEM(trick, i, PyLong_FromLong(s->trick[i]));
    return Py_BuildValue("(KKKKiiiiiiiiiiiiN)", (unsigned long long)s->hand[0], (unsigned long long)s->hand[1],
                         (unsigned long long)s->hand[2], (unsigned long long)s->hand[3], s->leader, s->trick_no,
                         s->contract, s->trump, s->forced_on_heart_lead, s->stop_when_decided, s->remaining,
                         s->points[0], s->points[1], s->points[2], s->points[3], s->over, trick);
}

static PyObject *py_king_values(PyObject *self, PyObject *args) {
    PyObject *state, *candidates;
    int me, depth;
    if (!PyArg_ParseTuple(args, "OiO!i", &state, &me, &PyTuple_Type, &candidates, &depth)) return NULL;
    KingState root;
    if (!king_read(state, &root)) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(candidates);
    PyObject *values = PyTuple_New(n);
    if (values == NULL) return NULL;
    long steps = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long card;
        if (!read_long(candidates, i, &card)) {
            Py_DECREF(values);
            return NULL;
        }
        KingState s = root;
        if (card >= 0) {
            if (!(king_legal(&s) & BIT(card))) {
                Py_DECREF(values);
                return PyErr_Format(PyExc_ValueError, "card %ld is not legal here", card);
            }
            king_play(&s, (int)card);
            steps += 1;
        }
        int v = king_rollout(&s, me, depth, &steps);
        PyTuple_SET_ITEM(values, i, PyLong_FromLong(v));
    }
    return Py_BuildValue("(Nl)", values, steps);
}

static PyObject *py_king_surprises(PyObject *self, PyObject *args) {
    PyObject *state, *plays;
    int me;
    if (!PyArg_ParseTuple(args, "OiO!", &state, &me, &PyTuple_Type, &plays)) return NULL;
    KingState s;
    if (!king_read(state, &s)) return NULL;
    int cards[KING_PLAYERS * KING_TRICKS];
    Py_ssize_t len;
    if (!read_ints(plays, cards, KING_PLAYERS * KING_TRICKS, &len)) return NULL;
    return PyLong_FromLong(king_surprises(&s, me, cards, (int)len));
}

static PyObject *py_king_legal(PyObject *self, PyObject *state) {
    KingState s;
    if (!king_read(state, &s)) return NULL;
    return PyLong_FromUnsignedLongLong(king_legal(&s));
}

static PyObject *py_king_policy(PyObject *self, PyObject *state) {
    KingState s;
    if (!king_read(state, &s)) return NULL;
    return PyLong_FromLong(king_policy(&s));
}

static PyObject *py_king_step(PyObject *self, PyObject *args) {
    PyObject *state;
    int card;
    if (!PyArg_ParseTuple(args, "Oi", &state, &card)) return NULL;
    KingState s;
    if (!king_read(state, &s)) return NULL;
    if (card < 0 || card > 51 || !(king_legal(&s) & BIT(card)))
        return PyErr_Format(PyExc_ValueError, "card %d is not legal here", card);
    king_play(&s, card);
    return king_write(&s);
}

/* ------------------------------------------------------------------------------------------ the module */

static PyMethodDef METHODS[] = {
    {"king_values", py_king_values, METH_VARARGS,
     "king_values(state, me, candidate_cards, depth) -> (values, steps): me's deal points after each candidate "
     "(-1: none, roll out from the state) and a rollout of the given depth"},
    {"king_surprises", py_king_surprises, METH_VARARGS,
     "king_surprises(state_at_deal_start, me, played_cards) -> the plays the normal policy would not make"},
    {"king_legal", py_king_legal, METH_O, "king_legal(state) -> the mask of the legal cards"},
    {"king_policy", py_king_policy, METH_O, "king_policy(state) -> the normal player's card"},
    {"king_step", py_king_step, METH_VARARGS, "king_step(state, card) -> the state after the card"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "engine.king.ai._kernel", "Кинг's compiled playout kernel.", -1, METHODS,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    king_init_tables();
    PyObject *module = PyModule_Create(&MODULE);
    if (module == NULL) return NULL;
    if (PyModule_AddIntConstant(module, "VERSION", 1) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
