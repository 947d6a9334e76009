# ImageWall — see README.md. `make run` and `make test` are all a fresh machine needs.
SWIFT ?= swift
APT_PACKAGES := libpng-dev libjpeg-dev liblcms2-dev pkg-config libfreetype-dev fonts-dejavu-core
RELEASE_BIN := .build/release/imagewall

.PHONY: deps build run test samples bench check-html man clean

# Installs the Debian packages the build needs, only those missing.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build -c release --product imagewall

# Renders SampleImages/ to out/sheet.png and out/sheet.json.
run: build
	mkdir -p out
	$(RELEASE_BIN) render SampleImages -o out/sheet.png --manifest out/sheet.json

test: deps
	$(SWIFT) test

# Rewrites SampleImages/ from the generator (deterministic).
samples: deps
	$(SWIFT) run -c release imagewall-samples SampleImages

bench: build
	Benchmarks/bench.sh

# Renders SampleImages with --html (two pages, a name with a space) and checks the page in
# headless Chromium (installed when missing).
check-html: build
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; }
	rm -rf out/html && mkdir -p "out/html/sheet dir"
	$(RELEASE_BIN) render SampleImages -o "out/html/sheet dir/sheet.png" --max-height 2500 --manifest out/html/m.json --html out/html/index.html -q
	python3 Tests/HTML/check_html.py out/html/index.html out/html/m.json

# Regenerates docs/imagewall.1 from the commands' help (argument-parser's plugin).
man:
	$(SWIFT) package --allow-writing-to-package-directory generate-manual --output-directory docs

clean:
	rm -rf .build out
