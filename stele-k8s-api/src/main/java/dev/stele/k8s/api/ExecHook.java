package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import java.util.List;

/** A command run in a pod's container through the API server ({@code pods/exec}). Velero's. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ExecHook {
  @JsonPropertyDescription("The container to run the command in (default: the pod's first)")
  public String container;

  @JsonPropertyDescription(
      "The command and its arguments, run as given: never through a shell (name one, such as"
          + " /bin/sh -c, if the command needs it)")
  public List<String> command;

  @JsonPropertyDescription(
      "What a failing command means: Fail (the pod's volumes are not backed up, the backup is"
          + " PartiallyFailed; the default) or Continue (a warning)")
  @Pattern("^(Fail|Continue)$")
  public String onError;

  @JsonPropertyDescription("How long the command may run (default 30s); longer is a failure")
  @Pattern("^([0-9]+(ms|s|m|h|d))+$")
  public String timeout;
}
