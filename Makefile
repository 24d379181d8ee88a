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
	@scripts/check-swift-messages
	@scripts/check-fixtures
	@scripts/check-openapi

# scripts/run-tests prepares the frame sets side by side, then runs the tests with a TMPDIR of their own and fails if
# they leave anything there.
test: check-proto
	$(SWIFT) build --build-tests
	SWIFT="$(SWIFT)" scripts/run-tests

bench: build
	@scripts/install-deps --bench
	scripts/run-bench

# The Swift wrappers' generator reads protoc's descriptors with the Python `protobuf` package (tools/requirements.txt,
# installed by --test).
proto: deps-test
	scripts/generate-proto
	scripts/generate-swift-messages

fixtures: deps
	scripts/generate-fixtures

clean:
	rm -rf .build
