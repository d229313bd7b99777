#ifndef BOOKRENDER_SHIM_HOLD_FACES_H
#define BOOKRENDER_SHIM_HOLD_FACES_H
#include <fontconfig/fontconfig.h>
#include <pango/pango.h>

/* cairo 1.16's FreeType backend keeps at most ten faces open; to open an eleventh it closes one it
   finds unlocked (`_cairo_ft_unscaled_font_lock_face`), reading that face's lock count without
   taking its lock. A thread that has just locked that face then uses a freed one: an assertion
   (`unscaled->face != NULL`), a crash or a page missing its text, once more than ten faces are in
   use on two threads (several themes, scripts or weights at once, as in `serve`, a batch or a
   test suite).

   This opens and locks, through cairo's public API (`cairo_ft_scaled_font_lock_face`), every face
   of `config`'s application font set not held yet, and never unlocks it: cairo never closes a
   face held so, and finding none unlocked it opens the next beside the others. cairo keys faces on
   file and index, as Pango's are keyed, so the faces held are the ones Pango measures and draws
   with. Called as a font set is made, before anything can lay out with it. Returns how many faces
   the process holds. Thread-safe. */
int shim_hold_faces(FcConfig *config);

/* The same for the one face of `font` (a Pango fontconfig font), once per file and index: for a
   process that does not hold every face up front (one book, a few faces), from the first time
   layout takes a run of glyphs in it. Until then the face can still be closed under another
   thread. A face held already costs a hash lookup. */
void shim_hold_face_of(PangoFont *font);

#endif
