/* Reading the flat tuples of ints in which a game's states cross into its kernel (engine/<game>/ai/csrc/module.c).
 * Each function sets a Python exception and returns 0 on a bad tuple. */
#ifndef CARDBOT_PYTUPLE_H
#define CARDBOT_PYTUPLE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kernel.h"

static inline int read_long(PyObject *tuple, Py_ssize_t i, long *out) {
    PyObject *item = PyTuple_GetItem(tuple, i);
    if (item == NULL) return 0;
    long v = PyLong_AsLong(item);
    if (v == -1 && PyErr_Occurred()) return 0;
    *out = v;
    return 1;
}

static inline int read_mask(PyObject *tuple, Py_ssize_t i, Mask *out) {
    PyObject *item = PyTuple_GetItem(tuple, i);
    if (item == NULL) return 0;
    unsigned long long v = PyLong_AsUnsignedLongLong(item);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return 0;
    *out = (Mask)v;
    return 1;
}

static inline int read_ints(PyObject *seq, int *out, Py_ssize_t cap, Py_ssize_t *len) {
    if (!PyTuple_Check(seq)) {
        PyErr_SetString(PyExc_TypeError, "expected a tuple");
        return 0;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    if (n > cap) {
        PyErr_SetString(PyExc_ValueError, "too many items");
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        if (!read_long(seq, i, &v)) return 0;
        out[i] = (int)v;
    }
    *len = n;
    return 1;
}

static inline int check_tuple(PyObject *obj, Py_ssize_t size, const char *what) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != size) {
        PyErr_Format(PyExc_ValueError, "%s: a tuple of %zd items expected", what, size);
        return 0;
    }
    return 1;
}

#endif
