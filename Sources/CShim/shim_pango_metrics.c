#include "shim_pango_metrics.h"
#include <glib.h>

typedef PangoFontMetrics *(*get_metrics_fn)(PangoFont *, PangoLanguage *);

static GRecMutex metrics_lock;
static get_metrics_fn original_get_metrics;

static PangoFontMetrics *locked_get_metrics(PangoFont *font, PangoLanguage *language) {
    g_rec_mutex_lock(&metrics_lock);
    PangoFontMetrics *metrics = original_get_metrics(font, language);
    g_rec_mutex_unlock(&metrics_lock);
    return metrics;
}

void shim_serialize_pango_font_metrics(PangoFont *font) {
    static gsize done = 0;
    if (font == NULL || !g_once_init_enter(&done)) return;
    PangoFontClass *klass = PANGO_FONT_GET_CLASS(font);
    if (klass->get_metrics != locked_get_metrics) {
        original_get_metrics = klass->get_metrics;
        klass->get_metrics = locked_get_metrics;
    }
    g_once_init_leave(&done, 1);
}
