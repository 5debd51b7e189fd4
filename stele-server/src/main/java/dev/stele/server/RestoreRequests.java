package dev.stele.server;

import java.io.IOException;
import java.util.List;

/**
 * Where the server sends a user's request to restore part of a pod-volume snapshot back into its
 * pod's live volume: in a cluster, a PodVolumeRestore that waits for an admin's approval; without
 * one, nowhere ({@link #NONE} refuses). The server has checked that the user may read the snapshot,
 * that it is a pod volume's and that it has the path.
 */
public interface RestoreRequests {
  /** A request as the server lists it; {@code phase} and {@code message} as its status says. */
  record Request(
      String name,
      String snapshot,
      String namespace,
      String pod,
      String volume,
      List<String> paths,
      boolean overwrite,
      String requestedBy,
      String phase,
      String message) {}

  /** What the request asks: {@code path} of {@code snapshot}, a volume of a pod. */
  record Ask(
      String user,
      String snapshot,
      String namespace,
      String pod,
      String volume,
      String path,
      boolean overwrite) {}

  /** A request that cannot be made now, in one line (the pod is gone, say). */
  final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    public Refused(String message) {
      super(message);
    }
  }

  /** Makes the request; gives it as listed. */
  Request create(Ask ask) throws Refused, IOException;

  /** The requests {@code user} made, oldest first. */
  List<Request> list(String user) throws IOException;

  /** Outside a cluster: every request refused, none listed. */
  RestoreRequests NONE =
      new RestoreRequests() {
        @Override
        public Request create(Ask ask) throws Refused {
          throw new Refused(
              "restore to a pod volume needs the server in its cluster (stele server --resource)");
        }

        @Override
        public List<Request> list(String user) {
          return List.of();
        }
      };
}
