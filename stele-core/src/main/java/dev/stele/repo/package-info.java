/**
 * The repository engine: format and key blobs, packs of encrypted chunks, index blobs, and
 * manifests (snapshots, tombstones, maintenance records), all written once under new names.
 *
 * <p>It stores and finds chunks by id and knows nothing of files or directories (that is {@code
 * dev.stele.snapshot}) and nothing of Kubernetes. It reaches storage only through {@code
 * dev.stele.blob}.
 */
package dev.stele.repo;
