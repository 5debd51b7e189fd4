/**
 * The blob store SPI: a flat namespace of named, immutable byte strings with retention.
 *
 * <p>Everything above this package (repository, snapshots, maintenance) talks to storage only
 * through {@link dev.stele.blob.BlobStore}. This package must never depend on anything that knows
 * about chunks, packs, snapshots or Kubernetes.
 */
package dev.stele.blob;
