/**
 * Snapshots of directory trees: backing a directory up into a repository, restoring it, listing and
 * comparing what snapshots hold, and committing any snapshot ({@link
 * dev.stele.snapshot.SnapshotWriter}, the one place a manifest is written).
 *
 * <p>Builds on {@code dev.stele.repo} (chunks, packs, manifests) and {@code dev.stele.chunk}; it
 * must never depend on a particular blob store or on Kubernetes.
 */
package dev.stele.snapshot;
