# fsmserve: make run starts the local cluster with fsmserve in it; make test runs every test.
SHELL := /usr/bin/env bash
GO ?= go
CONTROLLER_GEN := $(GO) tool controller-gen

.PHONY: all build run test test-unit test-e2e generate verify assets vet fmt

all: build

build:
	$(GO) build -o bin/fsmserve ./cmd/fsmserve

## generate: regenerate deepcopy, CRDs, RBAC, webhook manifests and machine diagrams.
# CRDs carry no descriptions (maxDescLen=0, as KServe's): with them the
# InferenceService CRD would be several MiB. crdpatch then relaxes what Go
# markers cannot (see api/internal/crdpatch).
generate:
	$(CONTROLLER_GEN) object paths=./api/...
	rm -f config/crd/bases/serving.kserve.io_*.yaml
	$(CONTROLLER_GEN) crd:maxDescLen=0 paths=./api/... output:crd:artifacts:config=config/crd/bases
	$(GO) run ./api/internal/cmd/crdpatch config/crd/bases/serving.kserve.io_*.yaml
