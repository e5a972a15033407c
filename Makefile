# fsmserve: `make run` starts the local cluster with fsmserve in it; `make test` runs every test.
SHELL := /usr/bin/env bash
GO ?= go
CONTROLLER_GEN := $(GO) tool controller-gen
# Go packages whose tests need the cluster binaries (envtest) are run with these assets.
ASSETS = $(shell $(GO) run ./hack/ensure-assets 2>/dev/stderr | tail -n 1)

.PHONY: all build run test test-unit test-e2e generate verify verify-generated assets vet fmt-check clean

all: build

## build: the fsmserve binary into bin/.
build:
	$(GO) build -o bin/fsmserve ./cmd/fsmserve

## run: (ARGS=--jaeger adds Jaeger) a local cluster (etcd, kube-apiserver, controller-manager, scheduler, kwok) with fsmserve running in it.
run: build
	@echo "fsmserve: first run builds the cluster binaries into the cache outside the clone (several minutes on 2 cores)"
	$(GO) run ./hack/ensure-assets $(if $(findstring --jaeger,$(ARGS)),--jaeger) >/dev/null
	./bin/fsmserve dev $(ARGS)

## assets: build (once) the cluster binaries into the cache; prints the envtest assets directory.
assets:
	$(GO) run ./hack/ensure-assets

## test: every check and every test: formatting, vet, generated files, unit and envtest suites, end to end.
test: verify test-unit test-e2e

## test-unit: go test ./... against envtest (real kube-apiserver and etcd from the cache).
test-unit:
	@assets="$$($(GO) run ./hack/ensure-assets | tail -n 1)"; \
	echo "fsmserve: KUBEBUILDER_ASSETS=$$assets"; \
	KUBEBUILDER_ASSETS="$$assets" $(GO) test -count=1 ./...

## test-e2e: the local cluster end to end with Jaeger: kubectl apply, Ready, the rollout's trace read back.
test-e2e: build
	$(GO) run ./hack/ensure-assets --jaeger >/dev/null
	$(GO) test -tags e2e -count=1 -timeout 20m -v ./test/e2e/...

## generate: regenerate deepcopy, CRDs, RBAC, webhook manifests and machine docs.
# CRDs carry no descriptions (maxDescLen=0, as KServe's): with them the
# InferenceService CRD would be several MiB. crdpatch then relaxes what Go
# markers cannot (see api/internal/crdpatch).
generate:
	$(CONTROLLER_GEN) object paths=./api/...
	rm -f config/crd/bases/serving.kserve.io_*.yaml
	$(CONTROLLER_GEN) crd:maxDescLen=0 paths=./api/... output:crd:artifacts:config=config/crd/bases
	$(GO) run ./api/internal/cmd/crdpatch config/crd/bases/serving.kserve.io_*.yaml
	$(CONTROLLER_GEN) rbac:roleName=fsmserve-manager-role paths=./controllers paths=./controllers/inferenceservice/... paths=./controllers/inferencegraph/... paths=./controllers/localmodelcache/... paths=./controllers/lifecycle/... paths=./webhooks/... output:rbac:artifacts:config=config/rbac
	$(CONTROLLER_GEN) rbac:roleName=fsmserve-localmodel-agent-role paths=./controllers/localmodelnode/... output:rbac:artifacts:config=config/rbac/localmodel-agent
	$(GO) run ./hack/webhookgen config/webhook/manifests.yaml
	$(GO) run ./cmd/fsmserve machines docs --out docs/machines

## verify: formatting, vet and generated files are clean.
verify: fmt-check vet verify-generated

fmt-check:
	@out="$$(gofmt -l $$(git ls-files '*.go' | grep -v '^vendor/'))"; \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

## verify-generated: regenerate into a scratch copy and fail when a committed generated file differs.
verify-generated:
	./hack/verify-generated.sh

clean:
	rm -rf bin
