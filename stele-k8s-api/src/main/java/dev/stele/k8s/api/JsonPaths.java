package dev.stele.k8s.api;

import com.fasterxml.jackson.databind.JsonMappingException;

/**
 * Where in a YAML or JSON document Jackson stopped, as a user finds it in the file: {@code
 * clusters[0].cluster.server}. One form for every document Stele reads from a user (a kubeconfig, a
 * restore's resource modifier rules).
 */
public final class JsonPaths {
  private JsonPaths() {}

  /** The path of fields and indexes to where {@code e} arose; empty at the document's top. */
  public static String of(JsonMappingException e) {
    StringBuilder at = new StringBuilder();
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        at.append(at.isEmpty() ? "" : ".").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        at.append('[').append(r.getIndex()).append(']');
      }
    }
    return at.toString();
  }
}
