package dev.stele.repo;

import java.io.IOException;

/** The location holds no Stele repository, or one this version cannot read. */
public class NotARepositoryException extends IOException {
  private static final long serialVersionUID = 1L;

  public NotARepositoryException(String message) {
    super(message);
  }
}
