package dev.stele.server;

import java.io.IOException;

/**
 * Where the server's Warning Events go: in a cluster, core/v1 Events on the server's {@code
 * BackupStorageLocationServer}; elsewhere nowhere. The server calls it from one thread of its own,
 * never from a request, so a slow or absent API server delays no answer.
 */
public interface EventSink {
  /**
   * Records {@code event}: creates it the first time its name is seen, and updates its count, last
   * time and message after that.
   */
  void warning(RefusalEvent event) throws IOException;
}
