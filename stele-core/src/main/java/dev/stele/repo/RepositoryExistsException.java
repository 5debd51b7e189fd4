package dev.stele.repo;

import java.io.IOException;

/** {@code init} found the location already in use. */
public class RepositoryExistsException extends IOException {
  private static final long serialVersionUID = 1L;

  public RepositoryExistsException(String message) {
    super(message);
  }
}
