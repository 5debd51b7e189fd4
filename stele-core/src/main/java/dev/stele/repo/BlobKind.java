package dev.stele.repo;

/** The families of standalone (non-pack) blobs, each under its own prefix. */
public enum BlobKind {
  INDEX(1, "index/"),
  SNAPSHOT(2, "snapshots/"),
  TOMBSTONE(3, "tombstones/"),
  MAINTENANCE(4, "maintenance/");

  final byte code;
  final String prefix;

  BlobKind(int code, String prefix) {
    this.code = (byte) code;
    this.prefix = prefix;
  }

  public String prefix() {
    return prefix;
  }

  public String nameOf(Id id) {
    return prefix + id.hex();
  }

  /** The id in a name of this family, or null if the name does not belong to it. */
  Id idOf(String name) {
    if (!name.startsWith(prefix) || name.length() != prefix.length() + 2 * Id.BYTES) {
      return null;
    }
    try {
      return Id.parse(name.substring(prefix.length()));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
