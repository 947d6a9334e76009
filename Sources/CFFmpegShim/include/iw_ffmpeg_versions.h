#ifndef IW_FFMPEG_VERSIONS_H
#define IW_FFMPEG_VERSIONS_H
/* "libavformat 59.27.100, libavcodec 59.37.100": the versions of FFmpeg's libraries loaded (which
   loads them: call it only where a video or an image FFmpeg reads is at hand). */
const char *iw_ffmpeg_versions(void);

/* The same for the headers this was built with, without loading anything. */
const char *iw_ffmpeg_header_versions(void);
#endif
