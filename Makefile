# fsmserve: make run starts the local cluster with fsmserve in it; make test runs every test.
SHELL := /usr/bin/env bash
GO ?= go
CONTROLLER_GEN := $(GO) tool controller-gen

.PHONY: all build run test test-unit test-e2e generate verify assets vet fmt

all: build

build:
	$(GO) build -o bin/fsmserve ./cmd/fsmserve

## generate: regenerate deepcopy, CRDs, RBAC, webhook manifests and machine diagrams.
generate:
	$(CONTROLLER_GEN) object paths=./api/...
	$(CONTROLLER_GEN) crd:allowDangerousTypes=true paths=./api/... output:crd:artifacts:config=config/crd/bases
