package dev.stele.testing;

/** The kinds of {@link dev.stele.blob.BlobStore} call, as decorators record and fault them. */
public enum BlobOperation {
  CREATE,
  /** Any kind of read: whole or ranged, of the current bytes or of an earlier version. */
  READ,
  LIST,
  STAT,
  DELETE,
  RETENTION,
  EXTEND_RETENTION,
  /** The listing of a name's versions. */
  VERSIONS;

  /** True for the calls that change the store: create, delete, extendRetention. */
  public boolean mutates() {
    return this == CREATE || this == DELETE || this == EXTEND_RETENTION;
  }
}
