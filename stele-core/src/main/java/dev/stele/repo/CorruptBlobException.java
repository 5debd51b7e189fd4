package dev.stele.repo;

import java.io.IOException;

/** A blob failed verification: its content does not match its name or its authentication tag. */
public class CorruptBlobException extends IOException {
  private static final long serialVersionUID = 1L;
  private final String blob;

  public CorruptBlobException(String blob, String what) {
    super("corrupted blob " + blob + ": " + what);
    this.blob = blob;
  }

  public CorruptBlobException(String blob, String what, Throwable cause) {
    super("corrupted blob " + blob + ": " + what, cause);
    this.blob = blob;
  }

  /** The name of the blob that failed. */
  public String blob() {
    return blob;
  }
}
