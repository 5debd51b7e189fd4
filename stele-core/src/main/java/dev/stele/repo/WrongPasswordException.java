package dev.stele.repo;

import java.io.IOException;

/** No key blob of the repository opens with the given password. */
public class WrongPasswordException extends IOException {
  private static final long serialVersionUID = 1L;

  WrongPasswordException(String repository) {
    super("wrong password for repository " + repository);
  }
}
