#ifndef IW_TEXT_H
#define IW_TEXT_H
/* Lines of text through FreeType, HarfBuzz, fontconfig and FriBidi: a primary face, the faces
   fontconfig ranks after it for the characters it lacks, the line's embedding levels by the
   Unicode bidirectional algorithm (FriBidi), runs of one face, one script and one level shaped
   by HarfBuzz and set in visual order. Not thread-safe: the caller serialises. */
#include <stddef.h>

typedef struct iw_text iw_text;

/* One shaped glyph: the face it comes from (0 the primary), its index there, and where its
   origin sits on the line, in 26.6 pixels from the line's start and up from the baseline. */
typedef struct iw_glyph {
    int face;
    unsigned int index;
    long x, y;
} iw_glyph;

/* The font file (and face index) fontconfig matches to `name` ("Liberation Sans", "DejaVu
   Serif:bold"), only when one of the matched font's families is the one asked for (case,
   spaces and dashes aside). Returns 1 and fills `path`, else 0. */
int iw_text_find_family(const char *name, char *path, size_t path_size, int *index);

/* Opens face `index` of the font file at `path` as the primary face. Returns NULL with the
   reason in `message` when it cannot. */
iw_text *iw_text_open(const char *path, int index, char *message, size_t message_size);
void iw_text_close(iw_text *text);

/* Shapes the `count` code points of `text` at `pixel_size` into at most `capacity` glyphs;
   returns how many there are (more than `capacity`: call again with room), or -1 when a face
   cannot be set to the size. `advance` is the line's width in 26.6 pixels. */
int iw_text_shape(iw_text *text, const unsigned int *points, int count, int pixel_size, iw_glyph *glyphs,
                  int capacity, long *advance);

/* The ascender and descender (negative below the baseline) of face `face` at `pixel_size`,
   in whole pixels. */
int iw_text_metrics(iw_text *text, int face, int pixel_size, int *ascender, int *descender);
/* The file face `face` was loaded from. */
const char *iw_text_face_path(iw_text *text, int face);

/* Whether face `face` is the colour emoji face, whose glyphs iw_text_render_color draws. */
int iw_text_is_color(iw_text *text, int face);

/* Renders glyph `index` of the colour face `face` at `pixel_size`: its bitmap scaled from the
   font's strike, premultiplied RGBA (malloc'd into `rgba`, the caller frees it; NULL for an
   empty glyph), its size and bearing. Returns 0, -1 on failure. */
int iw_text_render_color(iw_text *text, int face, unsigned int index, int pixel_size, unsigned char **rgba,
                         int *width, int *height, int *left, int *top);

/* Renders glyph `index` of face `face` at `pixel_size` as 8-bit coverage: a pointer to
   FreeType's rows (valid until the next call), their pitch, size and bearing. Returns 0. */
int iw_text_render(iw_text *text, int face, unsigned int index, int pixel_size, const unsigned char **rows,
                   int *pitch, int *width, int *height, int *left, int *top, int *mono);
#endif
