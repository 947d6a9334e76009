#ifndef IW_HEIF_LIBRARY_H
#define IW_HEIF_LIBRARY_H
/* libheif, loaded at run time: the functions the shim calls, looked up by name. Private to this
   target (the shim's public header is in include/). */
#include <libheif/heif.h>

/* libheif (and the codec libraries it brings: libde265, x265, libaom, dav1d) is loaded on the
   first HEIF or AVIF file, not when the program starts: a render without one pays neither their
   relocation nor libde265's start-up tables (25 M instructions in every process). Each function is
   looked up by name in the library of the ABI these headers describe. */
#define IW_HEIF_FUNCTIONS(X)                                                                            \
    X(heif_get_version) X(heif_check_filetype) X(heif_read_main_brand) X(heif_fourcc_to_brand)          \
    X(heif_has_compatible_brand) X(heif_context_alloc) X(heif_context_free)                             \
    X(heif_context_set_max_decoding_threads) X(heif_context_read_from_reader)                           \
    X(heif_context_get_primary_image_handle) X(heif_context_get_number_of_top_level_images)             \
    X(heif_image_handle_get_width) X(heif_image_handle_get_height)                                      \
    X(heif_image_handle_has_alpha_channel) X(heif_image_handle_is_premultiplied_alpha)                  \
    X(heif_image_handle_get_luma_bits_per_pixel) X(heif_image_handle_get_chroma_bits_per_pixel)         \
    X(heif_image_handle_get_raw_color_profile_size) X(heif_image_handle_get_raw_color_profile)          \
    X(heif_image_handle_get_nclx_color_profile) X(heif_nclx_color_profile_alloc)                        \
    X(heif_nclx_color_profile_free) X(heif_image_handle_get_list_of_thumbnail_IDs)                      \
    X(heif_image_handle_get_thumbnail) X(heif_image_handle_get_list_of_metadata_block_IDs)              \
    X(heif_image_handle_get_metadata_size) X(heif_image_handle_get_metadata)                            \
    X(heif_image_handle_release) X(heif_decoding_options_alloc) X(heif_decoding_options_free)           \
    X(heif_decode_image) X(heif_image_get_plane_readonly) X(heif_image_get_plane)                       \
    X(heif_image_get_width) X(heif_image_get_height) X(heif_image_get_bits_per_pixel)                   \
    X(heif_image_create) X(heif_image_add_plane) X(heif_image_set_raw_color_profile)                    \
    X(heif_image_set_premultiplied_alpha) X(heif_image_set_nclx_color_profile)                          \
    X(heif_image_release) X(heif_context_get_encoder_for_format) X(heif_encoder_set_parameter)          \
    X(heif_encoder_set_lossless) X(heif_encoder_set_lossy_quality) X(heif_encoder_release)              \
    X(heif_encoding_options_alloc) X(heif_encoding_options_free) X(heif_context_encode_image)           \
    X(heif_context_encode_thumbnail) X(heif_context_write_to_file)

struct iw_heif_functions {
#define IW_POINTER(name) __typeof__(name) *name;
    IW_HEIF_FUNCTIONS(IW_POINTER)
#undef IW_POINTER
};

/* The functions, once iw_heif_loaded has returned 0. */
extern struct iw_heif_functions iw_hf;

/* 0 once libheif is loaded (the first call loads it); otherwise 1, with the reason in `message`. */
int iw_heif_loaded(char *message, size_t message_size);
#endif
