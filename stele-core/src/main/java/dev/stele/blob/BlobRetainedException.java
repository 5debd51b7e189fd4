package dev.stele.blob;

import java.io.IOException;

/** A delete was refused because the blob is still under retention. */
public class BlobRetainedException extends IOException {
  private static final long serialVersionUID = 1L;
  private final String name;

  public BlobRetainedException(String name, Retention retention) {
    super(name + ": still retained (" + retention + ")");
    this.name = name;
  }

  public BlobRetainedException(String name, String why) {
    super(name + ": deletion refused by the storage (" + why + ")");
    this.name = name;
  }

  public String name() {
    return name;
  }
}
