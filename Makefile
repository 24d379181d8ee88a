# KYC Suite: `make run` starts the whole stack on http://127.0.0.1:8080; `make test` runs every test.
SWIFT ?= swift
RELEASE_BIN = .build/release

.PHONY: deps deps-test build build-debug run test bench proto check-proto fixtures clean

deps:
	@scripts/install-deps

deps-test:
	@scripts/install-deps --test

build: deps
	$(SWIFT) build -c release

build-debug: deps
	$(SWIFT) build

run: build
	$(RELEASE_BIN)/kycctl up

check-proto: deps-test
	@scripts/check-proto
	@scripts/check-fixtures
	@scripts/check-openapi

test: check-proto
	$(SWIFT) build --build-tests
	KYC_FRAMEGEN_DIR=$$(scripts/prepare-test-frames) KYC_CAMSIM_DIR=$$(scripts/prepare-test-frames camsim) \
	  KYC_CAMSIM_PORTRAIT_DIR=$$(scripts/prepare-test-frames camsim-portrait) \
	  KYC_CAMSIM_SELFIE_DIR=$$(scripts/prepare-test-frames camsim-selfie) $(SWIFT) test --skip-build

bench: build
	@scripts/install-deps --bench
	scripts/run-bench

proto: deps
	scripts/generate-proto

fixtures: deps
	scripts/generate-fixtures

clean:
	rm -rf .build
