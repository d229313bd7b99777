#ifndef BOOKRENDER_SHIM_HOLD_FACES_H
#define BOOKRENDER_SHIM_HOLD_FACES_H
#include <pango/pango.h>

/* cairo 1.16's FreeType backend keeps at most ten faces open; to open an eleventh it closes one it
   finds unlocked (`_cairo_ft_unscaled_font_lock_face`), reading that face's lock count without
   taking its lock. A thread that has just locked that face then uses a freed one: an assertion
   (`unscaled->face != NULL`), a crash or a page missing its text, once more than ten faces are in
   use on two threads (several themes, scripts or weights at once).

   This opens and locks the FreeType face of `font` (a Pango fontconfig font) through cairo's
   public API (`cairo_ft_scaled_font_lock_face`), once per font file and index in the process, and
   never unlocks it: cairo never closes a face held so, and with every face in use held it finds
   none to close and opens the next beside the others. cairo keys faces on file and index, as
   Pango's are keyed, so the face held is the one Pango draws with. A face is held from the first
   time layout sees a run in it: until then it can still be closed under another thread. Holding
   every face of the font set up front would close that gap, at the cost of opening them all in
   every process. Thread-safe; a font whose face is held already costs a hash lookup. */
void shim_hold_face_of(PangoFont *font);

#endif
