package dev.stele.repo;

import java.io.IOException;

/**
 * A blob carries a version this Stele does not read: it was written by a newer Stele. Unlike
 * corruption, the blob is presumably fine; an upgrade reads it.
 */
public class UnsupportedVersionException extends IOException {
  private final String blob;
  private final int version;

  UnsupportedVersionException(String blob, int version, int supported) {
    super(
        blob
            + " has version "
            + version
            + ", newer than this Stele reads ("
            + supported
            + "): it was written by a newer Stele");
    this.blob = blob;
    this.version = version;
  }

  /** The same, with a message of the caller's that should include the blob and version. */
  UnsupportedVersionException(String message, String blob, int version) {
    super(message);
    this.blob = blob;
    this.version = version;
  }

  public String blob() {
    return blob;
  }

  public int version() {
    return version;
  }
}
