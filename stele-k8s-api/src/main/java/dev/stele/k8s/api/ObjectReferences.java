package dev.stele.k8s.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;

/** References to a resource, as an Event's {@code involvedObject} names it. */
public final class ObjectReferences {
  private ObjectReferences() {}

  /** A reference to {@code resource}: its kind, name, namespace, uid and resource version. */
  public static ObjectReference to(HasMetadata resource) {
    var meta = resource.getMetadata();
    return new ObjectReferenceBuilder()
        .withApiVersion(resource.getApiVersion())
        .withKind(resource.getKind())
        .withName(meta.getName())
        .withNamespace(meta.getNamespace())
        .withUid(meta.getUid())
        .withResourceVersion(meta.getResourceVersion())
        .build();
  }
}
