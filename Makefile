# ImageWall — see README.md. `make run` and `make test` are all a fresh machine needs.
SWIFT ?= swift
# What `make lint` checks the pages' scripts and stylesheets with: ESLint and PHP_CodeSniffer,
# installed by `make lint` when missing (not by `make deps`: building needs neither).
LINT_PACKAGES := eslint php-codesniffer
APT_PACKAGES := libpng-dev libjpeg-dev libheif-dev libwebp-dev libtiff-dev libgif-dev libraw-dev libexiv2-dev libavformat-dev libavcodec-dev libswscale-dev libjxl-dev liblcms2-dev libxxhash-dev pkg-config \
  libfreetype-dev fonts-dejavu-core time parallel ffmpeg libjxl-tools python3 libhpdf-dev librsvg2-dev libpoppler-glib-dev poppler-utils python3-pil python3-jsonschema exiv2 \
  libopencv-objdetect-dev libopencv-imgcodecs-dev opencv-data libopenexr-dev \
  libharfbuzz-dev libfontconfig-dev libfribidi-dev libzstd-dev libdeflate-dev libsimdjson-dev fonts-droid-fallback \
  slurmctld slurmd slurm-client munge fonts-symbola fonts-lohit-deva fonts-noto-color-emoji qemu-user
# What `make bench` and `make check-formats` measure against: libvips (and pyvips from PyPI),
# ImageMagick, and valgrind for instruction counts.
PEER_PACKAGES := libvips-tools imagemagick valgrind
RELEASE_BIN := .build/release/imagewall
PREFIX ?= /usr/local
BIN_DIR = $(DESTDIR)$(PREFIX)/bin
LIB_DIR = $(DESTDIR)$(PREFIX)/lib/imagewall
MAN_DIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASH_DIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_DIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISH_DIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: deps peers install-packages build run test samples bench check-html check-parts check-slurm check-portable check-formats man docs fuzz sanitize format lint install uninstall clean

# Installs the Debian packages the build needs, only those missing.
deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(APT_PACKAGES)"

# The peers the benchmarks and the format checks run beside imagewall, only those missing.
peers:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(PEER_PACKAGES)"
	@python3 -c 'import pyvips' 2>/dev/null || pip install -q pyvips

# Installs the Debian packages named in PACKAGES, only those missing (through sudo unless root).
install-packages:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build -c release --product imagewall
	$(SWIFT) build -c release --product ImageWallFaces

# Renders SampleImages/ to out/sheet.png and out/sheet.json.
run: build
	mkdir -p out
	$(RELEASE_BIN) render SampleImages -o out/sheet.png --manifest out/sheet.json

# The command is built first: one test interrupts the real executable.
test: deps
	$(SWIFT) build --product imagewall
	$(SWIFT) build --product ImageWallFaces
	$(SWIFT) test

# swift-format with the committed .swift-format: `format` rewrites in place, `lint` fails on any finding.
# `lint` then checks the pages' scripts with ESLint and their stylesheets with PHP_CodeSniffer
# (Tools/lint/; both installed when missing). Debian's eslint finds its modules through NODE_PATH
# whichever Node.js runs it.
FORMAT_PATHS := Package.swift Plugins Sources Tests Benchmarks Fuzz
PAGE_ASSETS := Sources/WallPages/Assets
format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(LINT_PACKAGES)"
	NODE_PATH=/usr/share/nodejs:/usr/lib/nodejs$${NODE_PATH:+:$$NODE_PATH} /usr/bin/eslint --no-eslintrc -c Tools/lint/eslintrc.json -f unix $(PAGE_ASSETS)/*.js
	phpcs -q --standard=Tools/lint/css-ruleset.xml $(PAGE_ASSETS)

# Rewrites SampleImages/ from the generator (deterministic).
samples: deps
	$(SWIFT) run -c release imagewall-samples SampleImages

# Measures ImageWall beside its peers and the decoders alone (Benchmarks/bench.sh), then writes
# the rows it measured into docs/performance.md's table (the log is out/bench/log.txt).
bench: build peers
	@mkdir -p out/bench
	bash -o pipefail -c 'Benchmarks/bench.sh 2>&1 | tee out/bench/log.txt'
	python3 Tools/bench_table.py out/bench/results.tsv docs/performance.md

# Renders SampleImages with --html (two pages, a name with a space), as a Deep Zoom pyramid with
# its viewer, and as 2- and 4-column JPEG variants on one page; diffs two copies of it (one image
# swapped) with --report, and checks a changed copy of the example fixture suite with --report;
# checks the five pages in headless Chromium (installed when missing); then the pages of files with
# hostile names, every link clicked; then a gallery site of a real tree, walked page by page.
check-html: build
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; }
	rm -rf out/html && mkdir -p "out/html/sheet dir"
	$(RELEASE_BIN) render SampleImages -o "out/html/sheet dir/sheet.png" --max-height 2500 --manifest out/html/m.json --html out/html/index.html -q
	python3 Tests/HTML/check_html.py out/html/index.html out/html/m.json
	$(RELEASE_BIN) render SampleImages -o "out/html/sheet dir/wall.dzi" --manifest out/html/dzi.json --html out/html/wall.html -q
	python3 Tests/HTML/check_dzi.py out/html/wall.html out/html/dzi.json
	mkdir -p out/html/variants
	$(RELEASE_BIN) render SampleImages -o 'out/html/variants/sheet-{columns}.jpg' --columns 2,4 --width 1200 \
	  --manifest 'out/html/variants/m-{columns}.json' --html out/html/variants/index.html -q
	python3 Tests/HTML/check_variants.py out/html/variants/index.html out/html/variants/m-2.json out/html/variants/m-4.json
	# SampleImages stacked as look-alikes (one picture in many formats): every stack opened, every
	# picture of it shown (through renditions where a browser cannot show the original).
	mkdir -p out/html/stacks
	$(RELEASE_BIN) render SampleImages -o out/html/stacks/sheet.png --stack similar --manifest out/html/stacks/m.json \
	  --html out/html/stacks/index.html -q
	python3 Tests/HTML/check_stacks.py out/html/stacks/index.html out/html/stacks/m.json
	rm -rf out/html/report && mkdir -p out/html/report && cp -r SampleImages out/html/report/a && cp -r SampleImages out/html/report/b
	cp SampleImages/cmyk-adobe.jpg out/html/report/b/avif-alpha.avif
	for side in a b; do $(RELEASE_BIN) render out/html/report/$$side -o out/html/report/$$side.png --manifest out/html/report/$$side.json --no-cache -q; done
	$(RELEASE_BIN) diff out/html/report/a.png out/html/report/b.png --manifest out/html/report/a.json out/html/report/b.json \
	  --report out/html/report/diff.html > out/html/report/diff.txt || test $$? -eq 1
	python3 Tests/HTML/check_report.py out/html/report/diff.html out/html/report/diff.txt
	# The example fixture suite, one fixture's options changed and one input swapped, a golden no
	# fixture makes: its one report page, checked against the run's JSON.
	rm -rf out/html/suite && mkdir -p out/html/suite/images && cp -r examples/fixtures/goldens out/html/suite/
	cp SampleImages/* out/html/suite/images/ && cp SampleImages/cmyk-adobe.jpg out/html/suite/images/grayscale.jpg
	cp out/html/suite/goldens/pngs-grid.png out/html/suite/goldens/old.png
	sed -e 's|"../../SampleImages"|"images"|g' -e 's|"grid", "--columns", "4"|"grid", "--columns", "3"|' \
	  examples/fixtures/suite.json > out/html/suite/suite.json
	$(RELEASE_BIN) check out/html/suite/suite.json --report out/html/suite/report.html --json out/html/suite/result.json \
	  > out/html/suite/check.txt || test $$? -eq 1
	python3 Tests/HTML/check_suite_report.py out/html/suite/report.html out/html/suite/result.json
	# Files with hostile names (javascript:…, <!--<script>…, &copy;&lt…) in the pages' own folder:
	# every link of the gallery page, the Deep Zoom viewer and a diff report clicked; nothing runs.
	bash Tests/HTML/check_hostile.sh $(RELEASE_BIN) out/html/hostile
	# A gallery site of ../shared/corpora, SampleImages, a camera folder and hostile names, walked
	# at a phone's and a laptop's size: top page, albums, a tile opened large, picture pages.
	bash Tests/HTML/check_site.sh $(RELEASE_BIN) out/html/site

# Plans SampleImages once (two pages), renders it in six parts with GNU parallel, assembles
# them, and compares the pages with a one-process render of the same manifest, byte for byte.
# A one-node Slurm cluster from Debian's packages runs the array job of docs/scale-out.md as
# written; the assembled parts must be the one-process sheet, byte for byte.
check-slurm: build
	bash Tests/Slurm/check_slurm.sh $(RELEASE_BIN)

# The same sheets on every x86-64 CPU: SampleImages and one file of every format and decoding
# path of ../shared/corpora rendered natively, then checked (render --check) under QEMU as the
# x86-64 baseline (qemu64) and x86-64-v2 (Nehalem); only libjxl's named per-CPU rounding is
# allowed. CHECK_PORTABLE_FLAGS=--exact allows none.
check-portable: build
	bash Tests/Portable/check_portable.sh $(RELEASE_BIN) $(CHECK_PORTABLE_FLAGS)

check-parts: build
	rm -rf out/parts && mkdir -p out/parts
	$(RELEASE_BIN) layout SampleImages --max-height 3000 --json > out/parts/wall.json
	$(RELEASE_BIN) render --from-manifest out/parts/wall.json -o out/parts/one.png --no-cache -q
	parallel -j2 $(RELEASE_BIN) render --from-manifest out/parts/wall.json --part {}/6 -o out/parts/part-{} \
	  --cache out/parts/cache -q ::: 1 2 3 4 5 6
	$(RELEASE_BIN) assemble out/parts/part-* -o out/parts/sheet.png
	for one in out/parts/one-*.png; do cmp "$$one" "out/parts/sheet-$${one#out/parts/one-}"; done
	@echo "check-parts: the assembled pages are the one-process render's bytes"

# Reads each of Pillow's WebP, TIFF, GIF and AVIF test images with imagewall and with libvips,
# side by side (libvips and pyvips installed when missing).
# Real files of the formats read through FFmpeg, librsvg and poppler.
FORMATS_CORPUS ?= ../shared/corpora/formats
check-formats: build peers
	python3 Benchmarks/formats_vs_vips.py $(RELEASE_BIN) ../shared/corpora/pillow-formats
	@if [ -d $(FORMATS_CORPUS) ]; then python3 Benchmarks/formats_vs_peers.py $(RELEASE_BIN) $(FORMATS_CORPUS); \
	  else echo "check-formats: $(FORMATS_CORPUS) absent: the formats read through FFmpeg, librsvg and poppler compared on SampleImages' samples"; \
	  rm -rf out/formats && mkdir -p out/formats && cp SampleImages/bmp-* SampleImages/tga-* SampleImages/psd-* SampleImages/exr-* \
	    SampleImages/dds-* SampleImages/qoi-* SampleImages/pcx-* SampleImages/sgi-* SampleImages/pnm-* SampleImages/pfm-* \
	    SampleImages/xwd-* SampleImages/fits-* SampleImages/jpeg2000-* SampleImages/jpegls-* SampleImages/svg-* \
	    SampleImages/pdf-* out/formats/ && python3 Benchmarks/formats_vs_peers.py $(RELEASE_BIN) out/formats; fi

# Fuzzes probe + decode with libFuzzer and AddressSanitizer, one run per format, seeded from
# SampleImages and ../shared/corpora (FUZZ_SECONDS each; crashes land in fuzz-crashes/).
FUZZ_SECONDS ?= 300
FUZZ_BUILD := .build-fuzz
FUZZ_FORMATS := jpeg:jpg,jpeg png:png heif:heic,heif,avif webp:webp tiff:tif,tiff gif:gif raw:dng,nef,cr2,crw,raf,rw2,kdc video:mp4,mov,mkv,webm,avi jxl:jxl \
  stills:bmp,psd,exr,dds,qoi,sgi,ppm,pgm,pbm,pam,pfm,xwd,xbm,fits,jp2,j2k,jls tga:tga pcx:pcx vector:svg,pdf
fuzz:
	$(SWIFT) build --scratch-path $(FUZZ_BUILD) -c debug --sanitize fuzzer --sanitize address --product imagewall-fuzz
	rm -rf fuzz-work && mkdir -p fuzz-crashes
	for entry in $(FUZZ_FORMATS); do \
	  kind=$${entry%%:*}; mkdir -p fuzz-work/$$kind; \
	  for ext in $$(echo $${entry#*:} | tr , ' '); do \
	    find SampleImages $$( [ -d ../shared/corpora ] && echo ../shared/corpora ) -type f -iname "*.$$ext" -size -200k \
	      -exec cp {} fuzz-work/$$kind/ \; ; \
	  done; \
	done
	for entry in $(FUZZ_FORMATS); do \
	  kind=$${entry%%:*}; \
	  IMAGEWALL_FUZZ_EXTENSION=$$( [ $$kind = raw ] && echo dng; [ $$kind = video ] && echo mov; [ $$kind = tga ] && echo tga; [ $$kind = pcx ] && echo pcx ) \
	  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 $(FUZZ_BUILD)/debug/imagewall-fuzz fuzz-work/$$kind \
	    -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=1024 -timeout=10 -max_len=262144 -artifact_prefix=fuzz-crashes/ -print_final_stats=1 || exit 1; \
	done
	# ImageWall's deflater by round trip through zlib's inflate (seeds: SampleImages' bytes).
	mkdir -p fuzz-work/deflate && cp SampleImages/*.png SampleImages/*.ppm fuzz-work/deflate/
	IMAGEWALL_FUZZ_TARGET=deflate SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 \
	  $(FUZZ_BUILD)/debug/imagewall-fuzz fuzz-work/deflate -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=1024 \
	  -timeout=10 -max_len=1048576 -artifact_prefix=fuzz-crashes/ -print_final_stats=1

# The test suite under AddressSanitizer (with LeakSanitizer; XCTest's own allocations are
# suppressed), then ThreadSanitizer.
sanitize:
	SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=handle_sigill=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp \
	  $(SWIFT) test --scratch-path .build-asan --sanitize address
	SWIFT_BACKTRACE=enable=no $(SWIFT) test --scratch-path .build-tsan --sanitize thread

# The man page and docs/reference.md, made from the command's own help (Tools/manpage.py keeps
# its non-ASCII text, which ArgumentParser's manual plugin drops), dated by the last change to
# the commands.
man: build
	$(RELEASE_BIN) --experimental-dump-help | python3 Tools/manpage.py \
	  "$$(git log -1 --format=%cd --date=format:'%B %-d, %Y' -- Sources/WallCommand 2>/dev/null || date +'%B %-d, %Y')" \
	  > docs/imagewall.1
	$(RELEASE_BIN) --experimental-dump-help | python3 Tools/reference.py > docs/reference.md

# The library's DocC documentation (swift-docc-plugin: its catalogue is
# Sources/ImageWall/ImageWall.docc), every warning an error; the archive is
# .build/plugins/Swift-DocC/outputs/ImageWall.doccarchive.
docs: deps
	$(SWIFT) package --disable-sandbox generate-documentation --target ImageWall --warnings-as-errors

# Installs the release binary (the Swift runtime linked in, so it runs without the toolchain),
# the man page and bash, zsh and fish completions under PREFIX (default /usr/local), below
# DESTDIR when given (packaging); uninstall removes exactly those files.
install: deps
	$(SWIFT) build -c release --product imagewall --static-swift-stdlib
	$(SWIFT) build -c release --product ImageWallFaces
	install -d "$(BIN_DIR)" "$(LIB_DIR)" "$(MAN_DIR)" "$(BASH_DIR)" "$(ZSH_DIR)" "$(FISH_DIR)"
	install -m 755 $(RELEASE_BIN) "$(BIN_DIR)/imagewall"
	install -m 644 .build/release/libImageWallFaces.so "$(LIB_DIR)/libImageWallFaces.so"
	install -m 644 docs/imagewall.1 "$(MAN_DIR)/imagewall.1"
	$(RELEASE_BIN) --generate-completion-script bash > "$(BASH_DIR)/imagewall"
	$(RELEASE_BIN) --generate-completion-script zsh > "$(ZSH_DIR)/_imagewall"
	$(RELEASE_BIN) --generate-completion-script fish > "$(FISH_DIR)/imagewall.fish"
	@echo "installed $(BIN_DIR)/imagewall, its man page and completions"

uninstall:
	rm -f "$(BIN_DIR)/imagewall" "$(LIB_DIR)/libImageWallFaces.so" "$(MAN_DIR)/imagewall.1" "$(BASH_DIR)/imagewall" "$(ZSH_DIR)/_imagewall" \
	  "$(FISH_DIR)/imagewall.fish"

clean:
	rm -rf .build out
