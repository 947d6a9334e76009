#ifndef IW_VIDEO_H
#define IW_VIDEO_H
/* Videos through FFmpeg's libraries: the container's description of the first video stream
   (size, rotation, duration, codec) and single frames decoded and scaled to 8-bit RGB. Only the
   video stream is read (every other stream is discarded), the decoder runs on one thread, and
   FFmpeg's log is silenced: its messages are returned, never printed. The libraries are loaded
   on the first video opened; when they cannot be, every video is refused with the reason. */
#include <stddef.h>

typedef struct iw_video_info {
    int width, height;        /* the frame as displayed before rotation (sample aspect applied) */
    int coded_width, coded_height;
    int rotation;             /* degrees clockwise to turn the frame for display: 0, 90, 180, 270 */
    int bit_depth;            /* bits a sample of the decoded frames, 0 when unknown */
    double duration;          /* seconds; 0 when the container does not say */
    double whole_duration;    /* seconds of it the file holds, when its index places samples past its end
                                 (a file cut short), or when it has no index and its last frames
                                 end early inside an element; 0 when it holds them all, or cannot tell */
    int duration_from_frames; /* 1 when the container does not say its length and `duration` is
                                 where its last frame ends */
    char codec[32];           /* FFmpeg's decoder name: "h264", "hevc", "vp9", ... */
    char codec_long[64];      /* its long name: "H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10" */
    char container[32];       /* the demuxer: "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "avi" */
    char created[32];         /* the container's creation_time (UTC), as written; empty when absent */
    char local_created[40];   /* the local time with its offset a phone writes (Apple's
                                 com.apple.quicktime.creationdate, "2026-11-21T20:00:00-0800"); empty when absent */
    char make[64], model[96]; /* the camera's make and model (Apple's keys, or QuickTime's ©mak and ©mod) */
    char content_id[80];      /* Apple's com.apple.quicktime.content.identifier; empty when absent */
} iw_video_info;

typedef struct iw_video iw_video;

/* Opens the video at `path` and describes its first video stream in `info`. Refuses, with the
   reason in `message`, a file FFmpeg cannot read, one without a video stream, one whose codec
   this FFmpeg cannot decode, and frames of more than `max_pixels` pixels, all from the headers.
   Returns the open video (close it with iw_video_close) or NULL. */
iw_video *iw_video_open(const char *path, long long max_pixels, iw_video_info *info, char *message,
                        size_t message_size);

/* Decodes the frame shown at `seconds` from the start (the last frame before it when the video
   ends sooner) and scales it into `rgb` (width x height x 3 bytes, the frame's whole picture,
   not rotated). Reads at most `max_packets` packets of the video stream. Returns 0, with the
   time of the frame drawn in `shown_at`, and in `damaged` bit 0 when the decoder met damaged
   data on the way and bit 1 when the stream ended before `seconds`; 1 when no frame could be decoded, with the reason in `message`. */
int iw_video_frame(iw_video *video, double seconds, int width, int height, unsigned char *rgb,
                   int max_packets, double *shown_at, int *damaged, char *message, size_t message_size);

void iw_video_close(iw_video *video);

#endif
