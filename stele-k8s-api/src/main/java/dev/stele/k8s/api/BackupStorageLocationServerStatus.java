package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** What the operator last found, and did, for a {@link BackupStorageLocationServer}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupStorageLocationServerStatus implements PhasedStatus<ServerPhase> {
  @JsonPropertyDescription("New, Ready, NotReady or Failed")
  public ServerPhase phase;

  @Override
  public ServerPhase phase() {
    return phase;
  }

  public String message;

  public @Nullable Long observedGeneration;

  @JsonPropertyDescription(
      "Where clients connect inside the cluster: https://<svc>.<ns>.svc:<port>")
  public String endpoint;

  @JsonPropertyDescription("sha256:<hex> of the server certificate's DER bytes, for clients to pin")
  public String tlsFingerprint;

  @JsonPropertyDescription("Users in the users Secret (its keys)")
  public @Nullable Integer users;

  public List<Condition> conditions = new ArrayList<>();
}
