/* Reading the flat tuples of ints in which a game's states cross into its kernel (engine/<game>/ai/csrc/module.c),
 * and building the tuples that come back.
 *
 * Nothing from Python is trusted: every number is checked against its range as a Python int (before any cast),
 * every mask against the 52 cards, and each function sets a Python exception (TypeError for a wrong type,
 * ValueError for a value out of range, OverflowError for a number past a C long) and returns 0 on a bad one.
 * Every object the C API builds is checked; a failure returns NULL with its exception set. */
#ifndef CARDBOT_PYTUPLE_H
#define CARDBOT_PYTUPLE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kernel.h"

#define DECK_MASK (((Mask)1 << 52) - 1)

static inline int read_long(PyObject *tuple, Py_ssize_t i, long *out) {
    PyObject *item = PyTuple_GetItem(tuple, i);
    if (item == NULL) return 0;
    if (!PyLong_Check(item)) {
        PyErr_Format(PyExc_TypeError, "item %zd: an int expected, not %.100s", i, Py_TYPE(item)->tp_name);
        return 0;
    }
    long v = PyLong_AsLong(item);
    if (v == -1 && PyErr_Occurred()) return 0;
    *out = v;
    return 1;
}

/* an int of [lo, hi] at ``tuple[i]`` */
static inline int read_int_in(PyObject *tuple, Py_ssize_t i, long lo, long hi, const char *what, int *out) {
    long v;
    if (!read_long(tuple, i, &v)) return 0;
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s: %ld is out of range [%ld, %ld]", what, v, lo, hi);
        return 0;
    }
    *out = (int)v;
    return 1;
}

/* a set of cards: a mask of bits 0..51 only */
static inline int read_mask(PyObject *tuple, Py_ssize_t i, Mask *out) {
    PyObject *item = PyTuple_GetItem(tuple, i);
    if (item == NULL) return 0;
    if (!PyLong_Check(item)) {
        PyErr_Format(PyExc_TypeError, "item %zd: a card mask (int) expected, not %.100s", i, Py_TYPE(item)->tp_name);
        return 0;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(item);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "a card mask must be a non-negative int of bits 0..51");
        }
        return 0;
    }
    if ((Mask)v & ~DECK_MASK) {
        PyErr_SetString(PyExc_ValueError, "a card mask must be a non-negative int of bits 0..51");
        return 0;
    }
    *out = (Mask)v;
    return 1;
}

/* at most ``cap`` ints of [lo, hi] from the tuple ``seq`` */
static inline int read_ints_in(PyObject *seq, int *out, Py_ssize_t cap, long lo, long hi, const char *what,
                               Py_ssize_t *len) {
    if (!PyTuple_Check(seq)) {
        PyErr_Format(PyExc_TypeError, "%s: a tuple expected, not %.100s", what, Py_TYPE(seq)->tp_name);
        return 0;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    if (n > cap) {
        PyErr_Format(PyExc_ValueError, "%s: at most %zd items, not %zd", what, cap, n);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (!read_int_in(seq, i, lo, hi, what, &out[i])) return 0;
    *len = n;
    return 1;
}

/* distinct cards 0..51, none in ``taken``; their mask is added to ``taken`` */
static inline int cards_distinct(const int *cards, Py_ssize_t len, Mask *taken, const char *what) {
    for (Py_ssize_t i = 0; i < len; i++) {
        if (cards[i] < 0 || cards[i] > 51 || (*taken & BIT(cards[i]))) {
            PyErr_Format(PyExc_ValueError, "%s: card %d is not a card or is already elsewhere", what, cards[i]);
            return 0;
        }
        *taken |= BIT(cards[i]);
    }
    return 1;
}

static inline int check_tuple(PyObject *obj, Py_ssize_t size, const char *what) {
    if (!PyTuple_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: a tuple expected, not %.100s", what, Py_TYPE(obj)->tp_name);
        return 0;
    }
    if (PyTuple_GET_SIZE(obj) != size) {
        PyErr_Format(PyExc_ValueError, "%s: a tuple of %zd items expected, not %zd", what, size, PyTuple_GET_SIZE(obj));
        return 0;
    }
    return 1;
}

/* a seat number of a game of ``n`` players (or -1 where ``none_ok``) */
static inline int check_seat(long seat, int n, int none_ok, const char *what) {
    if ((seat >= 0 && seat < n) || (none_ok && seat == -1)) return 1;
    PyErr_Format(PyExc_ValueError, "%s: no seat %ld at a table of %d", what, seat, n);
    return 0;
}

/* a tuple of ``n`` ints; NULL with the exception set on a failure */
static inline PyObject *ints_tuple(const int *values, Py_ssize_t n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* a tuple that takes over the references of ``items`` (all of them released on a failure, NULLs included) */
static inline PyObject *steal_tuple(PyObject **items, Py_ssize_t n) {
    PyObject *t = NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        if (items[i] == NULL) goto fail;
    t = PyTuple_New(n);
    if (t == NULL) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, items[i]);
    return t;
fail:
    for (Py_ssize_t i = 0; i < n; i++) Py_XDECREF(items[i]);
    return NULL;
}

#endif
