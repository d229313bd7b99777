#ifndef BOOKRENDER_QPDF_LOADED_H
#define BOOKRENDER_QPDF_LOADED_H
#include <qpdf/qpdf-c.h>

/* qpdf's C API, with libqpdf loaded when first needed instead of when the program starts.
   libqpdf brings libstdc++'s and GnuTLS's set-up (GnuTLS and six libraries of its own): about
   4 ms of every start, for a library only the finishing step uses. `qpdf_loader_preload`
   starts loading it on a thread of its own, so a command that will finish a PDF has it ready
   by then; the functions of qpdf-c.h this program calls wait for it. */

/* Starts loading libqpdf on a thread of its own (once; later calls do nothing). */
void qpdf_loader_preload(void);

/* Waits for libqpdf to be loaded: NULL when it is, otherwise why not. Call it before any
   function of qpdf-c.h: those abort the program when libqpdf could not be loaded. */
const char *qpdf_loader_error(void);

#endif
