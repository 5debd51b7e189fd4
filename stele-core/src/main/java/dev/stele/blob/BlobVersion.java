package dev.stele.blob;

import java.time.Instant;
import java.util.Objects;

/**
 * One version of a name in a versioned store, as {@link BlobStore#versions} lists it.
 *
 * @param versionId the store's id for this version, opaque to Stele; passed back to {@link
 *     BlobStore#readVersion}
 * @param created when this version was written (for a delete marker, when the delete happened)
 * @param size length in bytes; 0 for a delete marker
 * @param deleteMarker true if this version records a deletion (it has no bytes): while it is the
 *     newest version, the name is absent
 */
public record BlobVersion(String versionId, Instant created, long size, boolean deleteMarker) {
  public BlobVersion {
    Objects.requireNonNull(versionId, "versionId");
    Objects.requireNonNull(created, "created");
  }
}
