package dev.stele.s3;

import java.util.ArrayList;
import java.util.List;

/** Records every HTTP attempt the store makes: operation name and status, in order. */
final class RequestLog implements S3Http.Tap {
  private final List<String> lines = new ArrayList<>();
  private final long start = System.nanoTime();

  @Override
  public void answered(S3Http.Request request, int status) {
    synchronized (lines) {
      lines.add(
          String.format(
              "%6d ms %s %d",
              (System.nanoTime() - start) / 1_000_000, request.operation(), status));
    }
  }

  List<String> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  /** How many attempts of {@code operation} were sent. */
  long count(String operation) {
    return lines().stream().filter(l -> l.contains(" " + operation + " ")).count();
  }

  void clear() {
    synchronized (lines) {
      lines.clear();
    }
  }

  @Override
  public String toString() {
    return String.join("\n", new ArrayList<>(lines()));
  }
}
