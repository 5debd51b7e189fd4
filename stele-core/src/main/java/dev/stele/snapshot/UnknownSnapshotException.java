package dev.stele.snapshot;

import java.io.IOException;

/** No snapshot matches what was asked for, or more than one does. */
public class UnknownSnapshotException extends IOException {
  private static final long serialVersionUID = 1L;

  public UnknownSnapshotException(String message) {
    super(message);
  }
}
