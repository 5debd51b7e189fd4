package dev.stele.blob;

import java.nio.file.FileAlreadyExistsException;

/** A create found its name already taken; nothing was written. */
public class BlobExistsException extends FileAlreadyExistsException {
  private static final long serialVersionUID = 1L;

  public BlobExistsException(String name) {
    super(name, null, "blob already exists");
  }
}
