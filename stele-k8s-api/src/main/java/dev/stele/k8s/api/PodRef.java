package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/** A pod, by namespace, name and uid (the uid names its directory under the kubelet root). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PodRef {
  public String namespace;
  public String name;
  public String uid;

  public PodRef() {}

  public PodRef(String namespace, String name, String uid) {
    this.namespace = namespace;
    this.name = name;
    this.uid = uid;
  }
}
