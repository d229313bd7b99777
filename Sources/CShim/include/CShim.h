#ifndef BOOKRENDER_CSHIM_H
#define BOOKRENDER_CSHIM_H
#include "shim_gobject.h"
#include "shim_jpeg.h"
#include "shim_png.h"
#include "shim_png_rgba.h"
#include "shim_sha256.h"
#include "shim_xxh3.h"
#include "shim_word_breaks.h"
#include "shim_copy.h"
#include "shim_beneath.h"
#include "shim_pango_metrics.h"
#include "shim_temporaries.h"
#include "shim_json_text.h"
#include "shim_interrupt.h"
#include "shim_cmyk.h"
#include "shim_hold_faces.h"
#endif
