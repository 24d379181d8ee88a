# KYC Suite: `make run` starts the whole stack on http://127.0.0.1:8080; `make test` runs every test.
SWIFT ?= swift
RELEASE_BIN = .build/release

.PHONY: deps build build-debug run test bench proto check-proto fixtures clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build -c release

build-debug: deps
	$(SWIFT) build

run: build
	$(RELEASE_BIN)/kycctl up

check-proto: deps
	@scripts/check-proto
	@scripts/check-fixtures

test: deps check-proto
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: build
	@scripts/install-deps --bench
	scripts/run-bench

proto: deps
	scripts/generate-proto

fixtures: deps
	scripts/generate-fixtures

clean:
	rm -rf .build
