#ifndef BOOKRENDER_SHIM_PANGO_METRICS_H
#define BOOKRENDER_SHIM_PANGO_METRICS_H
#include <pango/pango.h>

/* Pango 1.50's metrics getters (_pango_cairo_font_get_metrics in pangocairo-font.c and
   pango_fc_font_get_metrics in pangofc-font.c) guard against recursion with a process-wide
   `static int in_get_metrics`. While one thread computes the metrics of a font, another thread
   computing them for a font of its own font map sees the flag set, skips the derived metrics and
   caches an approximate character width of 0. Line breaking takes three of those widths as its
   margin for trusting estimated widths, so that thread's text breaks differently from the same
   text set alone: layouts on two threads did not match.

   This routes the get_metrics of `font`'s class (and so of every font of that class) through one
   recursive lock; after the first call for a font and language the getter is a cache lookup.
   Done once per process; later calls return at once. */
void shim_serialize_pango_font_metrics(PangoFont *font);

#endif
