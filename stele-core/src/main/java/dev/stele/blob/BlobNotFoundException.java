package dev.stele.blob;

import java.nio.file.NoSuchFileException;

/** The named blob does not exist. */
public class BlobNotFoundException extends NoSuchFileException {
  private static final long serialVersionUID = 1L;

  public BlobNotFoundException(String name) {
    super(name, null, "blob not found");
  }
}
